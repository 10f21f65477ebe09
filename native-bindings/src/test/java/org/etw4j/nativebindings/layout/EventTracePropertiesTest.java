package org.etw4j.nativebindings.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES_V2;
import org.etw4j.nativebindings.generated._WNODE_HEADER;
import org.junit.jupiter.api.Test;

class EventTracePropertiesTest {

    private static final long FIXED = _EVENT_TRACE_PROPERTIES.layout().byteSize();

    @Test
    void namesFollowTheStructureAndTheSizeCoversThem() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = EventTraceProperties.allocate(arena, "etw4j-session", "C:\\traces\\a.etl");
            int loggerChars = "etw4j-session".length() + 1;
            int fileChars = "C:\\traces\\a.etl".length() + 1;
            long unpadded = FIXED + 2L * (loggerChars + fileChars);
            assertEquals((unpadded + 7) / 8 * 8, p.byteSize());
            assertEquals(p.byteSize(), _WNODE_HEADER.BufferSize(_EVENT_TRACE_PROPERTIES.Wnode(p)));
            assertEquals(FIXED, _EVENT_TRACE_PROPERTIES.LoggerNameOffset(p));
            assertEquals(FIXED + 2L * loggerChars, _EVENT_TRACE_PROPERTIES.LogFileNameOffset(p));
            assertEquals("etw4j-session", EventTraceProperties.loggerName(p));
            assertEquals("C:\\traces\\a.etl", EventTraceProperties.logFileName(p));
            assertEquals(0, _EVENT_TRACE_PROPERTIES.LogFileMode(p), "left for the caller, zeroed");
        }
    }

    @Test
    void realTimeSessionHasNoLogFileName() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = EventTraceProperties.allocate(arena, "rt", null);
            assertEquals(0, _EVENT_TRACE_PROPERTIES.LogFileNameOffset(p));
            assertNull(EventTraceProperties.logFileName(p));
            assertEquals("rt", EventTraceProperties.loggerName(p));
        }
    }

    @Test
    void versionTwoIsFlaggedAndNumbered() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = EventTraceProperties.allocateV2(arena, "v2", "f.etl");
            assertEquals(_EVENT_TRACE_PROPERTIES_V2.layout().byteSize(), _EVENT_TRACE_PROPERTIES.LoggerNameOffset(p));
            int flags = _WNODE_HEADER.Flags(_EVENT_TRACE_PROPERTIES_V2.Wnode(p));
            assertEquals(EtwNative.WNODE_FLAG_VERSIONED_PROPERTIES(), flags & EtwNative.WNODE_FLAG_VERSIONED_PROPERTIES());
            assertEquals(2, EventTracePropertiesV2Bits.VERSION_NUMBER.get(p));
            assertEquals(2, _EVENT_TRACE_PROPERTIES_V2.V2Control(p));
            assertEquals("f.etl", EventTraceProperties.logFileName(p));
        }
    }

    @Test
    void queryBufferReservesBothNamesAndIsZeroedEvenFromDirtyMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dirty = arena.allocate(8192);
            dirty.fill((byte) 0x5A);
            SegmentAllocator slicing = SegmentAllocator.slicingAllocator(dirty);
            MemorySegment p = EventTraceProperties.allocateForQuery(slicing, 1024);
            assertEquals(FIXED + 4096, p.byteSize());
            assertEquals(FIXED, _EVENT_TRACE_PROPERTIES.LoggerNameOffset(p));
            assertEquals(FIXED + 2048, _EVENT_TRACE_PROPERTIES.LogFileNameOffset(p));
            assertEquals("", EventTraceProperties.loggerName(p));
            assertEquals(0, _EVENT_TRACE_PROPERTIES.EnableFlags(p));
        }
    }

    @Test
    void rejectsNamesEtwCannotCarry() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> EventTraceProperties.allocate(arena, "", null));
            assertThrows(IllegalArgumentException.class, () -> EventTraceProperties.allocate(arena, "a\0b", null));
            assertThrows(NullPointerException.class, () -> EventTraceProperties.allocate(arena, null, null));
            assertThrows(IllegalArgumentException.class, () -> EventTraceProperties.allocateForQuery(arena, 0));
        }
    }
}
