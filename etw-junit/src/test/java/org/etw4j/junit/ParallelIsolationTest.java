package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * JUnit parallel execution (run through EngineTestKit with it switched on): tests of different providers run at
 * the same time, each with its own session seeing only its own events; tests of the same provider are serialized
 * by {@link ProviderLocks}, so they do not see each other's events either.
 */
class ParallelIsolationTest {
    static final String SHARED = "Etw4j-JUnit-Parallel-Shared";
    static final int PER_TEST = 200;

    static final AtomicInteger sharedRunning = new AtomicInteger();
    static final AtomicInteger sharedMaxRunning = new AtomicInteger();
    static final CountDownLatch ownProvidersMet = new CountDownLatch(2);
    static final AtomicInteger ownProvidersMetInTime = new AtomicInteger();

    /** Not run by Surefire (a nested class). */
    static class ParallelFixture {
        private static void sharedProviderTest(CapturedEvents events, String label) throws InterruptedException {
            int now = sharedRunning.incrementAndGet();
            sharedMaxRunning.accumulateAndGet(now, Math::max);
            try {
                Fixtures.ticks(SHARED, PER_TEST, label);
                Thread.sleep(150); // room for another test of this provider to run now, were it not serialized
                events.assertThat().hasSize(PER_TEST).allSatisfy("be this test's own", e -> label.equals(e.getString("label")));
            } finally {
                sharedRunning.decrementAndGet();
            }
        }

        private static void ownProviderTest(CapturedEvents events, String provider) throws InterruptedException {
            Fixtures.ticks(provider, PER_TEST, provider);
            ownProvidersMet.countDown();
            if (ownProvidersMet.await(20, TimeUnit.SECONDS)) {
                ownProvidersMetInTime.incrementAndGet(); // both were running at once
            }
            events.assertThat().hasSize(PER_TEST).allSatisfy("be this test's own", e -> provider.equals(e.getString("label")));
        }

        @Test
        @EtwTest(providers = SHARED)
        void shared1(CapturedEvents events) throws InterruptedException {
            sharedProviderTest(events, "shared1");
        }

        @Test
        @EtwTest(providers = SHARED)
        void shared2(CapturedEvents events) throws InterruptedException {
            sharedProviderTest(events, "shared2");
        }

        @Test
        @EtwTest(providers = SHARED)
        void shared3(CapturedEvents events) throws InterruptedException {
            sharedProviderTest(events, "shared3");
        }

        @Test
        @EtwTest(providers = "Etw4j-JUnit-Parallel-Own-A")
        void ownA(CapturedEvents events) throws InterruptedException {
            ownProviderTest(events, "Etw4j-JUnit-Parallel-Own-A");
        }

        @Test
        @EtwTest(providers = "Etw4j-JUnit-Parallel-Own-B")
        void ownB(CapturedEvents events) throws InterruptedException {
            ownProviderTest(events, "Etw4j-JUnit-Parallel-Own-B");
        }
    }

    @Test
    void sameProviderSerializedOthersConcurrentEachSeesOnlyItsOwnEvents() {
        EngineExecutionResults r = Fixtures.run(ParallelFixture.class, Map.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "4"));
        r.testEvents().assertStatistics(s -> s.started(5).succeeded(5).failed(0));
        assertEquals(1, sharedMaxRunning.get(), "tests of one provider never overlapped");
        assertEquals(2, ownProvidersMetInTime.get(), "tests of different providers ran at the same time");
        assertTrue(Fixtures.runningSessions().stream().noneMatch(n -> n.startsWith(EtwExtension.SESSION_PREFIX + "shared")
                || n.startsWith(EtwExtension.SESSION_PREFIX + "own")), "every session stopped");
    }
}
