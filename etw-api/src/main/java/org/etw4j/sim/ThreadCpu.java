package org.etw4j.sim;

import java.util.HashMap;
import java.util.Map;

/**
 * Which JVM threads used CPU since they were last asked about: their CPU time (ThreadMXBean) advanced.
 *
 * <p>Not thread-safe: one per kernel simulation, used by its sampler thread only. Without java.management (an
 * optional module of etw-api) or per-thread CPU time, every RUNNABLE thread counts as running.
 */
abstract class ThreadCpu {

    /** Whether thread {@code id} ran since the last call for it (the first call: whether it has used any CPU). */
    abstract boolean ranSinceLastTick(long id);

    static ThreadCpu create() {
        try {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            if (mx.isThreadCpuTimeSupported()) {
                if (!mx.isThreadCpuTimeEnabled()) {
                    mx.setThreadCpuTimeEnabled(true);
                }
                return new Measured(mx);
            }
        } catch (LinkageError | UnsupportedOperationException | SecurityException e) {
            // java.management not in the module graph, or CPU time not available: fall back below
        }
        return new ThreadCpu() {
            @Override
            boolean ranSinceLastTick(long id) {
                return true;
            }
        };
    }

    private static final class Measured extends ThreadCpu {
        private final java.lang.management.ThreadMXBean mx;
        private final Map<Long, Long> last = new HashMap<>();

        Measured(java.lang.management.ThreadMXBean mx) {
            this.mx = mx;
        }

        @Override
        boolean ranSinceLastTick(long id) {
            long now = mx.getThreadCpuTime(id);
            if (now < 0) {
                last.remove(id);
                return false; // the thread ended
            }
            Long before = last.put(id, now);
            return now > (before == null ? 0L : before);
        }
    }
}
