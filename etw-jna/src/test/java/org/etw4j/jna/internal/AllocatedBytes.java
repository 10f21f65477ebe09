package org.etw4j.jna.internal;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Assumptions;

/**
 * Bytes the current thread has allocated on the Java heap, from {@code com.sun.management.ThreadMXBean}.
 *
 * <p>Test helper; confined to the thread that created it. Reached by reflection because the tests compile
 * inside module org.etw4j.jna, which (rightly) does not read java.management; they run on the class path,
 * where it is readable. {@link #read()} itself allocates nothing worth counting once warm (a boxed long per
 * call, both outside the measured loop).
 */
final class AllocatedBytes {
    private final Object bean;
    private final Method getThreadAllocatedBytes;
    private final long threadId;

    private AllocatedBytes(Object bean, Method method, long threadId) {
        this.bean = bean;
        this.getThreadAllocatedBytes = method;
        this.threadId = threadId;
    }

    /** A counter for the calling thread; skips the test when the JVM cannot count allocated bytes. */
    static AllocatedBytes ofCurrentThread() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
            Assumptions.assumeTrue(extended.isInstance(bean), "needs com.sun.management.ThreadMXBean");
            Assumptions.assumeTrue((Boolean) extended.getMethod("isThreadAllocatedMemoryEnabled").invoke(bean),
                    "thread allocated-memory counting is disabled");
            AllocatedBytes a = new AllocatedBytes(bean, extended.getMethod("getThreadAllocatedBytes", long.class),
                    Thread.currentThread().getId());
            a.read();
            return a;
        } catch (ReflectiveOperationException e) {
            Assumptions.abort("cannot count allocated bytes: " + e);
            return null;
        }
    }

    /** Bytes allocated so far by the thread. */
    long read() {
        try {
            return (Long) getThreadAllocatedBytes.invoke(bean, threadId);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
