package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelLogger;
import org.etw4j.controller.KernelTracing;
import org.etw4j.controller.SessionConfig;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.junit.jupiter.api.Test;

/**
 * What the FFM backend hands Windows for a kernel session (issue 21, item 12), byte for byte: EnableFlags, the
 * LogFileMode and Wnode.Guid of each kind of kernel logger (MS Learn, "Configuring and Starting the NT Kernel Logger
 * Session", "... a SystemTraceProvider Session"), and the TraceSetInformation buffers (CLASSIC_EVENT_ID array,
 * TRACE_PROFILE_INTERVAL) at the offsets KernelConstantsMatchHeadersTest takes from the mingw-w64 headers.
 */
class KernelSessionPropertiesTest {
    private static final Guid SESSION = Guid.parse("11111111-2222-3333-4444-555555555555");

    @Test
    void aSystemLoggerHasItsOwnGuidTheSystemLoggerModeAndTheFlags() {
        SessionConfig c = SessionConfig.file("etw4j-kernel", Path.of("k.etl"))
                .kernel(KernelTracing.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.PROFILE)).build();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = SessionProperties.forStart(a, c, SESSION);
            assertEquals(0x0100_0003, _EVENT_TRACE_PROPERTIES.EnableFlags(p));
            // EVENT_TRACE_FILE_MODE_SEQUENTIAL 0x1 | EVENT_TRACE_SYSTEM_LOGGER_MODE 0x02000000
            assertEquals(0x0200_0001, _EVENT_TRACE_PROPERTIES.LogFileMode(p));
            assertEquals(SESSION, SessionProperties.sessionId(p));
        }
    }

    @Test
    void theNtKernelLoggerIsNamedBySystemTraceControlGuidWithoutTheSystemLoggerMode() {
        SessionConfig c = SessionConfig.file(KernelTracing.KERNEL_LOGGER_NAME, Path.of("k.etl"))
                .kernel(KernelTracing.of(KernelFlag.IMAGE_LOAD).in(KernelLogger.NT_KERNEL_LOGGER)).build();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = SessionProperties.forStart(a, c, SESSION);
            assertEquals(0x4, _EVENT_TRACE_PROPERTIES.EnableFlags(p));
            assertEquals(0x1, _EVENT_TRACE_PROPERTIES.LogFileMode(p));
            assertEquals(Guid.parse("9e814aad-3204-11d2-9a82-006008a86939"), SessionProperties.sessionId(p));
        }
    }

    @Test
    void aSessionWithoutKernelEventsLeavesEnableFlagsZero() {
        SessionConfig c = SessionConfig.file("etw4j-user", Path.of("u.etl")).build();
        try (Arena a = Arena.ofConfined()) {
            assertEquals(0, _EVENT_TRACE_PROPERTIES.EnableFlags(SessionProperties.forStart(a, c, SESSION)));
        }
    }

    @Test
    void traceSetInformationBuffersAreClassicEventIdsAndAProfileInterval() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ids = KernelSetup.classicEventIds(a,
                    List.of(ClassicEventId.SAMPLED_PROFILE, ClassicEventId.CSWITCH));
            assertEquals(48, ids.byteSize(), "two CLASSIC_EVENT_ID of 24 bytes");
            byte[] first = ids.asSlice(0, 24).toArray(ValueLayout.JAVA_BYTE);
            // PerfInfo ce1dbfb4-137e-4da6-87b0-3f59aa102cbc in GUID memory order, Type 46, Reserved[7] zero
            assertEquals("b4bf1dce7e13a64d87b03f59aa102cbc" + "2e" + "00000000000000", hex(first));
            assertEquals(36, ids.get(ValueLayout.JAVA_BYTE, 24 + 16), "CSwitch's type");
            MemorySegment interval = KernelSetup.profileInterval(a, 20_000);
            assertEquals(8, interval.byteSize());
            assertEquals(0, interval.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "Source: the timer");
            assertEquals(20_000, interval.get(ValueLayout.JAVA_INT_UNALIGNED, 4), "Interval, 100 ns units");
        }
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xFF));
        }
        return s.toString();
    }
}
