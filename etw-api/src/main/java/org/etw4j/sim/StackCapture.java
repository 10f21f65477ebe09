package org.etw4j.sim;

/**
 * The simulated STACK_TRACE extended item: the JVM has no native return addresses to give, so each Java frame
 * is represented by a stable 64-bit hash of "class.method:line". Documented as a simulation; it lets consumers
 * exercise stack handling, not symbolize.
 *
 * <p>Stateless; thread-safe. Allocates (it walks the stack); used only when a session asked for stacks.
 */
final class StackCapture {
    private static final int MAX_FRAMES = 32;

    private StackCapture() {
    }

    static long[] capture() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !f.getClassName().startsWith("org.etw4j."))
                .limit(MAX_FRAMES)
                .mapToLong(f -> hash(f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber()))
                .toArray());
    }

    private static long hash(String s) {
        long h = 0xcbf29ce484222325L; // FNV-1a 64
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
