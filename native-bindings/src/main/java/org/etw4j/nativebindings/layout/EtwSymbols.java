package org.etw4j.nativebindings.layout;

import java.lang.foreign.SymbolLookup;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the bindings find the ETW functions: the generated {@code EtwNative} (redirected here by
 * {@code jextract/regenerate.sh}) and {@link DocumentedFunctions} resolve every symbol through {@link #lookup()},
 * which consults the libraries {@code WindowsLibraries.load()} opened with {@code SymbolLookup.libraryLookup}
 * (advapi32 and tdh from System32, or a test's substitute). Unlike {@code SymbolLookup.loaderLookup()} this ties
 * nothing to a class loader (a second class loader may open the same library) and does not depend on
 * {@code java.library.path}.
 *
 * <p>Thread-safe. Before {@link #install} the lookup finds nothing, so a downcall made too early fails with a
 * clear error instead of binding to some other library.
 */
public final class EtwSymbols {
    private static volatile SymbolLookup libraries = name -> Optional.empty();
    private static final SymbolLookup LOOKUP = name -> libraries.find(name);

    private EtwSymbols() {
    }

    /** The lookup the bindings use: the installed libraries' symbols, looked up at each call. */
    public static SymbolLookup lookup() {
        return LOOKUP;
    }

    /** Installs the libraries' lookup (once, by {@code WindowsLibraries.load()}). */
    public static void install(SymbolLookup opened) {
        libraries = Objects.requireNonNull(opened, "opened");
    }

    /**
     * The {@code Linker.Option.captureCallState} name under which the "last error" of a function that reports failure
     * through {@code GetLastError} is captured: {@code GetLastError} on Windows; elsewhere, where only a substitute
     * library can run, {@code errno}, which the stand-in sets in its place.
     */
    public static String lastErrorStateName() {
        return System.getProperty("os.name", "").startsWith("Windows") ? "GetLastError" : "errno";
    }
}
