package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.format.EventHeaderLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The .etl reader's records as {@code EVENT_RECORD}s: the flags ProcessTrace gives each header kind. */
class EtlRecordEventTest {
    @TempDir
    Path tmp;

    @Test
    void everyHeaderKindGetsProcessTraceFlags() throws Exception {
        Path p = tmp.resolve("kinds.etl");
        Files.write(p, EtlRecordKindsTest.allKinds(false).build());
        Set<HeaderKind> seen = EnumSet.noneOf(HeaderKind.class);
        EtlRecordEvent e = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(p)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                EtlRecordView v = c.record();
                assertSame(e, e.of(v));
                assertSame(v, e.view());
                seen.add(v.kind());
                int expected = switch (v.kind()) {
                    case EVENT_HEADER -> v.headerFlags();
                    case MESSAGE_TRACE_HEADER -> EventHeaderLayout.FLAG_TRACE_MESSAGE;
                    default -> EventHeaderLayout.FLAG_CLASSIC_HEADER;
                };
                assertEquals(expected, e.flags(), v.kind().toString());
                assertEquals(v.providerId(), e.providerId());
                assertEquals(v.opcode(), e.opcode());
                assertEquals(v.pointerSize(), e.pointerSize());
                assertEquals(v.timestampFileTime(), e.timestamp());
                assertEquals(v.userDataLength(), e.userDataLength());
                if (v.kind() == HeaderKind.EVENT_HEADER) {
                    assertEquals(EventHeaderLayout.FLAG_EXTENDED_INFO,
                            e.flags() & EventHeaderLayout.FLAG_EXTENDED_INFO, "stored flags kept");
                    assertNotNull(e.extendedDataOfType(EventHeaderLayout.EXT_PROV_TRAITS));
                    assertEquals(e.extendedData(1), e.extendedDataOfType(EventHeaderLayout.EXT_RELATED_ACTIVITYID));
                    assertNull(e.extendedDataOfType(EventHeaderLayout.EXT_EVENT_SCHEMA_TL));
                }
            }
        }
        assertEquals(EnumSet.allOf(HeaderKind.class).size(), seen.size(), "the synthetic file has every kind: " + seen);
    }

    /**
     * The public EVENT_RECORD form of the raw tier ({@code EtlRecordView.asRawEventRecord()}, since the adapter class
     * is internal): one object per view, made once, that follows the cursor and presents each record as the adapter
     * does.
     */
    @Test
    void theViewsEventRecordFormIsOneObjectThatFollowsTheCursor() throws Exception {
        Path p = tmp.resolve("kinds.etl");
        Files.write(p, EtlRecordKindsTest.allKinds(false).build());
        EtlRecordEvent expected = new EtlRecordEvent();
        int records = 0;
        try (EtlFile f = EtlFile.open(p)) {
            EtlCursor c = f.cursor();
            RawEventRecord first = null;
            while (c.advance()) {
                EtlRecordView v = c.record();
                RawEventRecord r = v.asRawEventRecord();
                if (first == null) {
                    first = r;
                }
                assertSame(first, r, "the same object for every record of the cursor's view");
                expected.of(v);
                assertEquals(List.of(expected.flags(), expected.providerId(), expected.id(), expected.opcode(),
                                expected.processId(), expected.threadId(), expected.timestamp(), expected.userDataLength()),
                        List.of(r.flags(), r.providerId(), r.id(), r.opcode(), r.processId(), r.threadId(),
                                r.timestamp(), r.userDataLength()), v.toString());
                records++;
            }
        }
        assertTrue(records > HeaderKind.values().length, "records read: " + records);
    }

    @Test
    void unsetAdapterSaysSo() {
        assertThrows(IllegalStateException.class, () -> new EtlRecordEvent().flags());
    }
}
