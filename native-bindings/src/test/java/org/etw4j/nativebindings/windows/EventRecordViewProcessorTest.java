package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.nativebindings.generated._ETW_BUFFER_CONTEXT;
import org.etw4j.nativebindings.generated._EVENT_HEADER;
import org.etw4j.nativebindings.generated._EVENT_RECORD;
import org.junit.jupiter.api.Test;

/**
 * {@link EventRecordView#processorIndex()} against the SDK's {@code GetEventProcessorIndex} (evntcons.h, mingw-w64
 * {@code /usr/share/mingw-w64/include/evntcons.h}): {@code BufferContext.ProcessorIndex} only when
 * {@code EVENT_HEADER_FLAG_PROCESSOR_INDEX} (0x0200) is set in {@code EventHeader.Flags}, otherwise the one-byte
 * {@code BufferContext.ProcessorNumber}. {@code ETW_BUFFER_CONTEXT} (evntrace.h) is a union of
 * {@code {UCHAR ProcessorNumber; UCHAR Alignment;}} and {@code USHORT ProcessorIndex}: with the flag clear, the
 * second byte is {@code Alignment}, which nothing promises to be zero. Records built by hand in native memory.
 */
class EventRecordViewProcessorTest {
    private static final long FLAGS = _EVENT_RECORD.EventHeader$offset() + _EVENT_HEADER.Flags$offset();
    private static final long CONTEXT = _EVENT_RECORD.BufferContext$offset();

    private static int processorOf(int flags, short processorIndexField) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(_EVENT_RECORD.layout());
            r.set(ValueLayout.JAVA_SHORT, FLAGS, (short) flags);
            r.set(ValueLayout.JAVA_SHORT, CONTEXT + _ETW_BUFFER_CONTEXT.ProcessorIndex$offset(), processorIndexField);
            EventRecordView v = new EventRecordView();
            v.attach(r);
            try {
                return v.processorIndex();
            } finally {
                v.detach();
            }
        }
    }

    @Test
    void flagClear_theOneByteProcessorNumberEvenWhenAlignmentHoldsGarbage() {
        // ProcessorNumber = 0x03, Alignment = 0xA5 (garbage): little-endian USHORT 0xA503
        assertEquals(3, processorOf(0, (short) 0xA503));
        assertEquals(0xFF, processorOf(EventHeaderLayout.FLAG_64_BIT_HEADER, (short) 0x7FFF), "one byte, unsigned");
    }

    @Test
    void flagSet_theTwoByteProcessorIndex() {
        assertEquals(0x0123, processorOf(EventHeaderLayout.FLAG_PROCESSOR_INDEX, (short) 0x0123));
        assertEquals(0xA503, processorOf(EventHeaderLayout.FLAG_PROCESSOR_INDEX | EventHeaderLayout.FLAG_64_BIT_HEADER,
                (short) 0xA503), "USHORT, unsigned");
    }

    @Test
    void theFlagIsTheSdkOne() {
        assertEquals(0x0200, EventHeaderLayout.FLAG_PROCESSOR_INDEX, "EVENT_HEADER_FLAG_PROCESSOR_INDEX in evntcons.h");
    }
}
