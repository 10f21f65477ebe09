package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.etw4j.Level;
import org.junit.jupiter.api.Test;

/** Invalid controller parameters fail with a message naming what is wrong and ETW's limit. */
class ControllerValuesTest {

    @Test
    void sessionConfigLimits() {
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("").build());
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("x".repeat(1025)).build());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("s").bufferSizeKb(0).build())
                .getMessage().contains("bufferSizeKb"));
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("s").bufferSizeKb(16 * 1024 + 1).build());
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("s").buffers(8, 4).build());
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("s").flushTimer(Duration.ofMillis(1500)).build());
        assertThrows(IllegalArgumentException.class, () -> SessionConfig.realTime("s").realTime(false).build(),
                "neither real-time nor a file");
        SessionConfig both = SessionConfig.realTimeAndFile("s", Path.of("x.etl")).build();
        assertTrue(both.realTime());
        assertEquals(Path.of("x.etl"), both.logFile());
        assertEquals(64 * 1024, both.bufferSizeBytes());
    }

    @Test
    void filterLimitsAreEtws() {
        Set<Integer> sixtyFive = IntStream.range(0, 65).boxed().collect(Collectors.toSet());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new EventFilter.EventIds(true, sixtyFive))
                .getMessage().contains("64"));
        assertDoesNotThrow(() -> new EventFilter.EventIds(true, IntStream.range(0, 64).boxed().collect(Collectors.toSet())));
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.EventIds(true, Set.of(70000)));
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.ProcessIds(IntStream.range(1, 10).boxed().collect(Collectors.toSet())));
        assertThrows(IllegalArgumentException.class, () -> EventFilter.ExecutableNames.of("a;b"));
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.ExecutableNames(Collections.nCopies(200, "abcd.exe")));
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.Custom(1, new byte[1025]));
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.Payload("E", 0, true, List.of()));
        PayloadPredicate p = new PayloadPredicate("f", PayloadPredicate.Op.EQ, "1");
        assertThrows(IllegalArgumentException.class, () -> new EventFilter.Payload("E", 0, true, Collections.nCopies(9, p)));
    }

    @Test
    void enableParametersRejectTooManyOrDuplicateFilters() {
        EnableParameters.Builder b = EnableParameters.builder();
        for (int i = 0; i < 14; i++) {
            b.filter(new EventFilter.Custom(i, new byte[0]));
        }
        assertTrue(assertThrows(IllegalArgumentException.class, b::build).getMessage().contains("13"));
        assertThrows(IllegalArgumentException.class, () -> EnableParameters.builder()
                .filter(EventFilter.EventIds.allow(1)).filter(EventFilter.EventIds.deny(2)).build());
        assertThrows(IllegalArgumentException.class, () -> EnableParameters.builder().level(256).build());
        EnableParameters ok = EnableParameters.builder().level(Level.WARNING).property(EnableProperty.IGNORE_KEYWORD_0)
                .property(EnableProperty.SID).build();
        assertEquals(0x11, ok.propertyMask());
    }

    @Test
    void payloadPredicatesCompareLikeTdh() {
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.GE, "500").test(503));
        assertFalse(new PayloadPredicate("f", PayloadPredicate.Op.GE, "500").test(200));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.BETWEEN, "1,10").test(10L));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.NOT_BETWEEN, "1,10").test(11));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.MODULO, "4").test(12));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.CONTAINS, "DEX").test("/index"));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.EQ, "0x10").test(16));
        assertTrue(new PayloadPredicate("f", PayloadPredicate.Op.IS, "abc").test("ABC"));
        assertFalse(new PayloadPredicate("f", PayloadPredicate.Op.EQ, "1").test(null));
        assertEquals(new HashSet<>(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 20, 21, 30, 31)),
                java.util.Arrays.stream(PayloadPredicate.Op.values()).map(PayloadPredicate.Op::code).collect(Collectors.toSet()));
    }

    @Test
    void enablingDoesNotWaitForCallbacksUnlessAskedAndTheWaitFitsAUlong() {
        // Issue 21, item 4: EnableTraceEx2's Timeout is 0 by default (the FFM backend passed 10 s before).
        EnableParameters p = EnableParameters.of(Level.VERBOSE);
        assertEquals(Duration.ZERO, p.callbackWait());
        assertFalse(p.waitsForCallbacks());
        EnableParameters waiting = EnableParameters.builder().waitForCallbacks(Duration.ofMillis(1500)).build();
        assertEquals(Duration.ofMillis(1500), waiting.callbackWait());
        assertTrue(waiting.waitsForCallbacks());
        assertEquals(p.withCallbackWait(Duration.ofMillis(1500)), waiting);
        assertEquals(Duration.ZERO, new EnableParameters(5, -1L, 0, null, null, null).callbackWait());
        assertEquals(0xFFFF_FFFEL, p.withCallbackWait(EnableParameters.MAX_CALLBACK_WAIT).callbackWait().toMillis());
        assertThrows(IllegalArgumentException.class, () -> p.withCallbackWait(Duration.ofMillis(0xFFFF_FFFFL)),
                "INFINITE is not a wait etw4j offers");
        assertThrows(IllegalArgumentException.class, () -> p.withCallbackWait(Duration.ofMillis(-1)));
    }
}
