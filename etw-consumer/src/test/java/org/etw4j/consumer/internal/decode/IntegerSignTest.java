package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * Integers print with the sign their schema gives, in text and JSON (issue 10, defect 3).
 *
 * <p>What the corpus file shows: {@code perfview__primitive-types.etl}'s TraceLogging metadata declares
 * {@code int16_type} TlgInINT16 (5), {@code int32_type} TlgInINT32 (7), but {@code int64_type} TlgInUINT64 (0x0a)
 * like {@code uint64_type}: bytes {@code "uint32_type\0" 08 "int64_type\0" 0a "uint64_type\0" 0a} at file offset
 * 0x211b. Its value bytes {@code 34 ff ff ff ff ff ff ff} are therefore 18446744073709551412 as the schema reads
 * them (TDH's reading of TDH_INTYPE_UINT64); TraceEvent prints -204 because its dynamic parser reads every UInt64
 * as a .NET long. The decoder and both renderings follow the schema, so that field prints unsigned; a field the
 * schema declares signed prints signed.
 */
class IntegerSignTest {

    @Test
    void int64FieldPrintsSigned() {
        DecodedEvent e = new DecodedEvent(Guid.parse("d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615"), "P", "E", "", "", 0, 0, 0,
                SchemaSource.TRACELOGGING, List.of(
                        EventField.of("i64", InType.INT64, OutType.NULL, -204L, null),
                        EventField.of("u64", InType.UINT64, OutType.NULL, -204L, null),
                        EventField.of("i32", InType.INT32, OutType.NULL, -102, null),
                        EventField.of("i8", InType.INT8, OutType.NULL, -1, null)),
                8, new byte[0], List.of(), null);
        assertEquals("P/E i64=-204; u64=18446744073709551412; i32=-102; i8=-1;", EventFormatterAccess.text(e));
        String json = EventFormatterAccess.json(e);
        assertTrue(json.contains("{\"name\":\"i64\",\"type\":\"win:Int64\",\"value\":-204}"), json);
        assertTrue(json.contains("{\"name\":\"u64\",\"type\":\"win:UInt64\",\"value\":18446744073709551412}"), json);
        assertTrue(json.contains("{\"name\":\"i8\",\"type\":\"win:Int8\",\"value\":-1}"), json);
    }

    @Test
    void primitiveTypesCorpusFieldsFollowTheirDeclaredTypes() throws IOException {
        EventDecoder decoder = new EventDecoder();
        EtlRecordEvent adapter = new EtlRecordEvent();
        List<DecodedEvent> events = new ArrayList<>();
        try (EtlFile f = EtlFile.open(SharedData.resolve("etl-corpus/perfview__primitive-types.etl"))) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                DecodedEvent e = decoder.decode(adapter.of(c.record()));
                if (e.eventName().equals("PrimitiveTypesTest")) {
                    events.add(e);
                }
            }
        }
        assertEquals(5, events.size());
        DecodedEvent mercury = events.get(0);
        assertEquals(InType.INT16, field(mercury, "int16_type").inType());
        assertEquals(InType.INT32, field(mercury, "int32_type").inType());
        assertEquals(InType.UINT64, field(mercury, "int64_type").inType(), "as the trace's metadata declares it");
        String text = EventFormatterAccess.text(mercury);
        assertTrue(text.contains(" int16_type=-51; int32_type=-102; uint16_type=51; uint32_type=102; "
                + "int64_type=18446744073709551412; uint64_type=204;"), text);
        String json = EventFormatterAccess.json(mercury);
        assertTrue(json.contains("{\"name\":\"int32_type\",\"type\":\"win:Int32\",\"value\":-102}"), json);
        assertTrue(json.contains("{\"name\":\"int64_type\",\"type\":\"win:UInt64\",\"value\":18446744073709551412}"),
                json);
    }

    private static EventField field(DecodedEvent e, String name) {
        return e.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + e));
    }
}
