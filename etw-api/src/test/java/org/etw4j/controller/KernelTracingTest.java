package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.etw4j.EtwException;
import org.etw4j.spi.SessionUpdates;
import org.junit.jupiter.api.Test;

/** The kernel part of a session's configuration (issue 21, item 12): values, validation, the two kinds of logger. */
class KernelTracingTest {

    @Test
    void flagsMaskIsTheOrOfTheHeaderValues() {
        KernelTracing k = KernelTracing.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.IMAGE_LOAD,
                KernelFlag.PROFILE, KernelFlag.CSWITCH);
        // evntrace.h: PROCESS 0x1 | THREAD 0x2 | IMAGE_LOAD 0x4 | CSWITCH 0x10 | PROFILE 0x01000000
        assertEquals(0x0100_0017, k.enableFlags());
        assertEquals(KernelLogger.SYSTEM_LOGGER, k.logger());
        assertEquals(10_000, k.effectiveSamplingInterval100ns(), "Windows' default: 1 ms");
        assertEquals(List.of(), k.stackEvents());
    }

    @Test
    void samplingIntervalIsIn100NanosecondUnitsWithinXperfsRange() {
        KernelTracing k = KernelTracing.of(KernelFlag.PROFILE);
        assertEquals(20_000, k.withSamplingInterval(Duration.ofMillis(2)).samplingInterval100ns());
        assertEquals(1_221, k.withSamplingInterval(Duration.ofNanos(122_100)).samplingInterval100ns());
        assertThrows(IllegalArgumentException.class, () -> k.withSamplingInterval(Duration.ofNanos(122_000)));
        assertThrows(IllegalArgumentException.class, () -> k.withSamplingInterval(Duration.ofMillis(1001)));
        assertThrows(IllegalArgumentException.class,
                () -> new KernelTracing(Set.of(KernelFlag.PROFILE), KernelLogger.SYSTEM_LOGGER, 1_000, List.of()));
    }

    @Test
    void stackListHoldsAtMost256ClassicEventIds() {
        KernelTracing k = KernelTracing.of(KernelFlag.PROFILE).withStacks(ClassicEventId.SAMPLED_PROFILE,
                ClassicEventId.CSWITCH);
        assertEquals(List.of(ClassicEventId.SAMPLED_PROFILE, ClassicEventId.CSWITCH), k.stackEvents());
        List<ClassicEventId> tooMany = Collections.nCopies(257, ClassicEventId.SAMPLED_PROFILE);
        assertThrows(IllegalArgumentException.class,
                () -> new KernelTracing(Set.of(KernelFlag.PROFILE), KernelLogger.SYSTEM_LOGGER, 0, tooMany));
        assertThrows(IllegalArgumentException.class, () -> new ClassicEventId(KernelEventGroup.PERF_INFO.guid(), 256));
        assertThrows(IllegalArgumentException.class, () -> new KernelTracing(Set.of(), KernelLogger.SYSTEM_LOGGER, 0,
                List.of()));
    }

    @Test
    void theNtKernelLoggerHasItsOwnNameAndASystemLoggerAnother() {
        KernelTracing nt = KernelTracing.of(KernelFlag.PROCESS).in(KernelLogger.NT_KERNEL_LOGGER);
        SessionConfig ok = SessionConfig.file("NT Kernel Logger", Path.of("k.etl")).kernel(nt).build();
        assertEquals(nt, ok.kernel());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SessionConfig.file("mine", Path.of("k.etl")).kernel(nt).build());
        assertTrue(e.getMessage().contains("NT Kernel Logger"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.file("NT Kernel Logger", Path.of("k.etl"))
                .kernel(KernelTracing.of(KernelFlag.PROCESS)).build());
        assertNull(SessionConfig.file("mine", Path.of("k.etl")).build().kernel(), "no kernel events by default");
    }

    @Test
    void anUpdateCannotChangeTheKernelEvents() {
        SessionConfig running = SessionConfig.file("mine", Path.of("k.etl")).build();
        EtwException e = assertThrows(EtwException.class,
                () -> SessionUpdates.check(running, running.withKernel(KernelTracing.of(KernelFlag.PROCESS))));
        assertTrue(e.getMessage().contains("kernel events"), e.getMessage());
    }
}
