package org.etw4j.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/**
 * Test helper: runs {@code body(k)} on {@code n} platform threads released together by one gate, so that writers
 * really contend, and returns when all have ended. Stateless. A thread interrupted while waiting at the gate does
 * not run its body; a body that throws ends its own thread only (callers check the outcome by counting what
 * arrived).
 */
public final class GatedThreads {

    private GatedThreads() {
    }

    /** Runs {@code body} on threads named {@code namePrefix + k}, k = 0..n-1, and joins them. */
    public static void run(int n, String namePrefix, IntConsumer body) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int k = t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                body.accept(k);
            }, namePrefix + t);
            threads.add(w);
            w.start();
        }
        go.countDown();
        for (Thread w : threads) {
            w.join();
        }
    }
}
