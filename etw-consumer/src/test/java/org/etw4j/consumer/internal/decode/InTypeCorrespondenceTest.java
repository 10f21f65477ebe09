package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.etw4j.consumer.InType;
import org.junit.jupiter.api.Test;

/**
 * TDH's in-types (this package) and TraceLogging's ({@code org.etw4j.tracelogging.InType}) are two vocabularies
 * over one numbering (etw-formats.md sections 1.4 and 4.2): every TraceLogging code names the TDH type of the
 * same number, with the same wire size, except 16 (a pointer: reserved in TraceLogging, sized by the logging
 * process) and 24 (TraceLogging's struct marker, which has no data). {@link TraceLoggingSupport} maps fields by
 * code and both payload decoders read the bytes with one {@code org.etw4j.format.PrimitiveReader}; this pins what
 * that relies on.
 */
class InTypeCorrespondenceTest {

    @Test
    void everyTraceLoggingCodeIsTheTdhTypeOfTheSameNumberAndSize() {
        for (org.etw4j.tracelogging.InType tl : org.etw4j.tracelogging.InType.values()) {
            InType tdh = InType.fromCode(tl.code());
            assertNotNull(tdh, tl.toString());
            String expectedName = tl == org.etw4j.tracelogging.InType.BOOL32 ? "BOOLEAN" : tl.name();
            assertEquals(expectedName, tdh.name(), "code " + tl.code());
            if (!Set.of(org.etw4j.tracelogging.InType.POINTER, org.etw4j.tracelogging.InType.STRUCT).contains(tl)) {
                assertEquals(tl.fixedSize(), tdh.fixedSize(8), tl.toString());
                assertEquals(tl.fixedSize(), tdh.fixedSize(4), tl.toString());
            }
        }
        assertEquals(8, InType.POINTER.fixedSize(8));
        assertEquals(4, InType.POINTER.fixedSize(4));
    }

    @Test
    void tdhTypesBeyondTraceLoggingHaveNoTraceLoggingCode() {
        for (InType tdh : InType.values()) {
            org.etw4j.tracelogging.InType tl = org.etw4j.tracelogging.InType.fromCode(tdh.code());
            if (tdh.code() <= 25) {
                assertNotNull(tl, tdh.toString());
            } else {
                assertNull(tl, tdh + ": WBEM types have no 5-bit TraceLogging code");
            }
        }
    }
}
