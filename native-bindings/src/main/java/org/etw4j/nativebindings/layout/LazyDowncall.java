package org.etw4j.nativebindings.layout;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A downcall handle of a hand-bound function ({@link DocumentedFunctions}, {@link TokenFunctions}), resolved through
 * {@link EtwSymbols} on first use and kept once found. A failed lookup is not remembered, so a call made after the
 * library gets loaded succeeds.
 *
 * <p>Thread-safe (a race links the handle twice, harmlessly).
 */
final class LazyDowncall {
    private final String name;
    private final FunctionDescriptor descriptor;
    private final String library;
    private final Linker.Option[] options;
    private volatile MethodHandle handle;

    LazyDowncall(String name, FunctionDescriptor descriptor, String library, Linker.Option... options) {
        this.name = name;
        this.descriptor = descriptor;
        this.library = library;
        this.options = options.clone();
    }

    MethodHandle handle() {
        MethodHandle h = handle;
        if (h == null) {
            MemorySegment address = EtwSymbols.lookup().find(name).orElseThrow(() ->
                    new UnsatisfiedLinkError(name + " not found: " + library + " is not loaded"
                            + " (call WindowsLibraries.load() first; Windows only)"));
            h = Linker.nativeLinker().downcallHandle(address, descriptor, options);
            handle = h;
        }
        return h;
    }

    /** Rethrows what {@code invokeExact} threw: unchecked as is, anything else as an AssertionError. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("unexpected checked exception from a downcall", t);
    }
}
