package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/**
 * The current thread's allocated-bytes counter ({@code com.sun.management.ThreadMXBean}), for tests that assert
 * "no allocation per record". Read through reflection: the test sources are compiled inside the module, which
 * does not read java.management (nor should it, for a test). Stateless; the returned counter reads the calling
 * thread's figure.
 */
final class ThreadAllocation {

    private ThreadAllocation() {
    }

    /** The counter, or the calling test is skipped (assumption failure) when this JVM has none or it is off. */
    static LongSupplier counterOrSkip() {
        Object mx;
        Method allocatedBytes;
        try {
            mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Class<?> sunBean = Class.forName("com.sun.management.ThreadMXBean");
            assumeTrue(sunBean.isInstance(mx), "needs com.sun.management.ThreadMXBean");
            assumeTrue((Boolean) sunBean.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx),
                    "per-thread allocation counting is off");
            allocatedBytes = sunBean.getMethod("getCurrentThreadAllocatedBytes");
        } catch (ReflectiveOperationException e) {
            assumeTrue(false, "no per-thread allocation counters: " + e);
            return () -> 0;
        }
        Object bean = mx;
        return () -> {
            try {
                return (Long) allocatedBytes.invoke(bean);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("reading the thread allocation counter", e);
            }
        };
    }
}
