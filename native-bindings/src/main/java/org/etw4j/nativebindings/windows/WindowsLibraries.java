package org.etw4j.nativebindings.windows;

/**
 * Loads the Windows libraries behind the bindings, advapi32.dll (ETW provider, controller and consumer
 * functions) and tdh.dll (event decoding), into the class loader of the bindings. The generated bindings and
 * {@code DocumentedFunctions} find their symbols through that class loader's libraries
 * ({@code SymbolLookup.loaderLookup()}) rather than a hard-wired library path, so the bindings load on any OS
 * and resolve on Windows once this has run.
 *
 * <p>Thread-safe and idempotent: the first successful {@link #load()} loads both libraries, later calls do
 * nothing. Call it before the first downcall: a generated function whose symbol is looked up before the
 * library is loaded fails for good (its holder class does not initialise).
 */
public final class WindowsLibraries {

    private static volatile boolean loaded;

    private WindowsLibraries() {
    }

    /** True when running on Windows, where the libraries exist. */
    public static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    /**
     * Loads advapi32 and tdh.
     *
     * @throws UnsupportedOperationException when not running on Windows
     * @throws UnsatisfiedLinkError if Windows cannot load one of the libraries
     */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (WindowsLibraries.class) {
            if (loaded) {
                return;
            }
            if (!isWindows()) {
                throw new UnsupportedOperationException("ETW needs Windows: advapi32.dll and tdh.dll cannot be"
                        + " loaded on " + System.getProperty("os.name"));
            }
            System.loadLibrary("advapi32");
            System.loadLibrary("tdh");
            loaded = true;
        }
    }
}
