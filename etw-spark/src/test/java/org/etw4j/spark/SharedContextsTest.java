package org.etw4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.etw4j.consumer.LearnedContext;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedContexts}: one pass per file identity, its lifetime, and what each split takes (the consumer's
 * {@link LearnedContext}, from which each split's reader takes its own presenter and schemas).
 */
class SharedContextsTest {
    /** A real pass's result (over the smallest corpus file), handed out by the counting passes below. */
    private static LearnedContext learned;

    @BeforeAll
    static void learnOnce() throws Exception {
        try (EtlFile f = EtlFile.open(SparkTests.corpusFile("perfview__smallEtlFile.etl"))) {
            learned = LearnedContext.learn(ReadSettings.DEFAULT, List.of(f));
        }
    }

    @AfterEach
    void clear() {
        SharedContexts.clear();
    }

    private static SharedContexts.Key key(String path, long modified) {
        return new SharedContexts.Key(path, 100, modified, null, List.of(), false);
    }

    private static Supplier<SharedContexts.Learned> counting(AtomicInteger runs) {
        return () -> {
            runs.incrementAndGet();
            return SharedContexts.Learned.of(learned);
        };
    }

    @Test
    void concurrentSplitsOfOneFileRunOnePassAndAllTakeItsResult() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<SharedContexts.Learned>> takes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                takes.add(pool.submit(() -> {
                    start.await();
                    return SharedContexts.take(key("/a.etl", 1), 4, counting(runs));
                }));
            }
            start.countDown();
            List<SharedContexts.Learned> taken = new ArrayList<>();
            for (Future<SharedContexts.Learned> f : takes) {
                taken.add(f.get());
            }
            assertEquals(1, runs.get());
            for (SharedContexts.Learned t : taken) {
                assertSame(learned, t.context(), "every split reads with the one pass's result");
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(0, SharedContexts.held(), "the fourth of four splits dropped the pass");
        SharedContexts.take(key("/a.etl", 1), 4, counting(runs));
        assertEquals(2, runs.get(), "a later job learns the file again");
    }

    @Test
    void anotherIdentityIsAnotherPassAndAPassIsKeptUntilAllSplitsTookIt() {
        AtomicInteger runs = new AtomicInteger();
        SharedContexts.take(key("/a.etl", 1), 3, counting(runs));
        SharedContexts.take(key("/a.etl", 2), 3, counting(runs)); // rewritten: another modification time
        SharedContexts.take(new SharedContexts.Key("/a.etl", 100, 1, null, List.of("x.man"), false), 3,
                counting(runs));
        assertEquals(3, runs.get());
        assertEquals(3, SharedContexts.held());
        SharedContexts.take(key("/a.etl", 1), 3, counting(runs));
        SharedContexts.take(key("/a.etl", 1), 3, counting(runs));
        assertEquals(3, runs.get());
        assertEquals(2, SharedContexts.held());
    }

    @Test
    void atMostMaxFilesPassesAreKeptTheLeastRecentlyTakenGoesFirst() {
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i <= SharedContexts.MAX_FILES; i++) {
            SharedContexts.take(key("/f" + i + ".etl", 1), 2, counting(runs));
            if (i == 0) {
                continue;
            }
            SharedContexts.take(key("/f0.etl", 1), 100, counting(runs)); // keeps /f0 recent
        }
        assertEquals(SharedContexts.MAX_FILES, SharedContexts.held());
        assertEquals(SharedContexts.MAX_FILES + 1, runs.get());
        SharedContexts.take(key("/f0.etl", 1), 100, counting(runs));
        assertEquals(SharedContexts.MAX_FILES + 1, runs.get(), "/f0 was kept");
        SharedContexts.take(key("/f1.etl", 1), 2, counting(runs));
        assertEquals(SharedContexts.MAX_FILES + 2, runs.get(), "/f1, the least recently taken, was dropped");
    }

    @Test
    void aPassStoppedByAProblemGivesEverySplitThatProblemAndAFailingPassIsRunAgain() {
        EtlFormatException problem = new EtlFormatException("bad.etl", "bound reached", 4096, 1);
        AtomicInteger runs = new AtomicInteger();
        Supplier<SharedContexts.Learned> stopped = () -> {
            runs.incrementAndGet();
            return SharedContexts.Learned.stopped(problem);
        };
        SharedContexts.Learned t = SharedContexts.take(key("/bad.etl", 1), 2, stopped);
        assertSame(problem, t.problem());
        assertNull(t.context());
        assertSame(problem, SharedContexts.take(key("/bad.etl", 1), 2, stopped).problem());
        assertEquals(1, runs.get());

        assertThrows(IllegalStateException.class, () -> SharedContexts.take(key("/c.etl", 1), 2, () -> {
            throw new IllegalStateException("task killed");
        }));
        SharedContexts.take(key("/c.etl", 1), 2, counting(runs));
        assertEquals(2, runs.get());
    }
}
