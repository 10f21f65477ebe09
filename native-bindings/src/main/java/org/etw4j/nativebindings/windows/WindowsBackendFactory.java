package org.etw4j.nativebindings.windows;

import java.lang.foreign.ValueLayout;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackendFactory;

/**
 * The ServiceLoader factory of {@link WindowsBackend} ({@value WindowsBackend#NAME}): supported on 64-bit
 * Windows JVMs only (the bindings are x64; a 32-bit JVM is refused, see {@link WindowsLibraries#load()}),
 * priority 100 (above the simulated backend's 0).
 *
 * <p>Stateless; thread-safe. {@link #create()} loads advapi32 and tdh on first use.
 */
public final class WindowsBackendFactory implements EtwBackendFactory {
    /** Priority: real ETW wins over the simulation wherever it can run. */
    public static final int PRIORITY = 100;

    @Override
    public String name() {
        return WindowsBackend.NAME;
    }

    /** Windows, Java 23+ (the FFM API the bindings were generated for) and a 64-bit JVM (the bindings are x64). */
    @Override
    public boolean isSupported() {
        return supported(WindowsLibraries.isWindows(), Runtime.version().feature(), ValueLayout.ADDRESS.byteSize());
    }

    static boolean supported(boolean windows, int javaFeature, long pointerBytes) {
        return windows && javaFeature >= 23 && pointerBytes == WindowsLibraries.REQUIRED_POINTER_BYTES;
    }

    @Override
    public String unsupportedReason() {
        return unsupportedReason(WindowsLibraries.isWindows(), Runtime.version().feature(),
                ValueLayout.ADDRESS.byteSize());
    }

    static String unsupportedReason(boolean windows, int javaFeature, long pointerBytes) {
        if (!windows) {
            return "not Windows";
        }
        if (javaFeature < 23) {
            return "Java " + javaFeature + ": the FFM bindings need Java 23+ (etw-jna runs on Java 17+)";
        }
        if (pointerBytes != WindowsLibraries.REQUIRED_POINTER_BYTES) {
            return "a " + pointerBytes * 8 + "-bit JVM: the bindings are x64, use a 64-bit JVM";
        }
        return "supported";
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public EtwBackend create() {
        return WindowsBackend.create();
    }
}
