package org.etw4j.nativebindings.windows;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the library behind the bindings into the class loader of the bindings: on Windows advapi32.dll (ETW
 * provider, controller and consumer functions) and tdh.dll (event decoding); or, when the system property
 * {@value #LIBRARY_PROPERTY} names a file, that file instead (the stand-in advapi32 the tests build, on any OS).
 * This is the one place that decides where the ETW functions come from: the generated bindings and
 * {@code DocumentedFunctions} find their symbols through the class loader's libraries
 * ({@code SymbolLookup.loaderLookup()}) rather than a hard-wired library path, so the bindings load on any OS and
 * resolve once this has run.
 *
 * <p>Thread-safe and idempotent: the first successful {@link #load()} loads the libraries, later calls do
 * nothing (a JVM cannot unload them, so the choice is made once per class loader). Call it before the first
 * downcall: a generated function whose symbol is looked up before the library is loaded fails for good (its
 * holder class does not initialise).
 */
public final class WindowsLibraries {

    /** System property naming a library file that replaces advapi32 and tdh (tests: the stand-in). */
    public static final String LIBRARY_PROPERTY = "etw4j.windows.library";

    private static volatile Path loadedSubstitute;
    private static volatile boolean loaded;

    private WindowsLibraries() {
    }

    /** True when running on Windows, where the libraries exist. */
    public static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    /** The substitute library {@value #LIBRARY_PROPERTY} names now, or null when the system's is meant. */
    public static Path configuredSubstitute() {
        String p = System.getProperty(LIBRARY_PROPERTY);
        return p == null || p.isBlank() ? null : Path.of(p.trim()).toAbsolutePath();
    }

    /**
     * Loads advapi32 and tdh, or the substitute library {@value #LIBRARY_PROPERTY} names.
     *
     * @throws UnsupportedOperationException when not running on Windows and no substitute is named
     * @throws UnsatisfiedLinkError if a library cannot be loaded (a named substitute that does not exist, too)
     */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (WindowsLibraries.class) {
            if (loaded) {
                return;
            }
            Path substitute = configuredSubstitute();
            if (substitute != null) {
                if (!Files.isRegularFile(substitute)) {
                    throw new UnsatisfiedLinkError(LIBRARY_PROPERTY + " names " + substitute
                            + ", which does not exist (build it first, or clear the property to use the system's ETW)");
                }
                System.load(substitute.toString());
                loadedSubstitute = substitute;
            } else {
                if (!isWindows()) {
                    throw new UnsupportedOperationException("ETW needs Windows: advapi32.dll and tdh.dll cannot be"
                            + " loaded on " + System.getProperty("os.name") + " (tests may name a stand-in with -D"
                            + LIBRARY_PROPERTY + "=<file>)");
                }
                System.loadLibrary("advapi32");
                System.loadLibrary("tdh");
            }
            loaded = true;
        }
    }

    /** Whether {@link #load()} has succeeded. */
    public static boolean isLoaded() {
        return loaded;
    }

    /** The substitute library {@link #load()} loaded, or null when it loaded the system's (or nothing yet). */
    public static Path loadedSubstitute() {
        return loadedSubstitute;
    }

    /**
     * The {@code Linker.Option.captureCallState} name under which the "last error" of a function that reports
     * failure through {@code GetLastError} (OpenTraceW) is captured: {@code GetLastError} on Windows; elsewhere,
     * where only a substitute library can run, {@code errno}, which the stand-in sets in its place.
     */
    public static String lastErrorStateName() {
        return isWindows() ? "GetLastError" : "errno";
    }
}
