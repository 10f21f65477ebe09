package org.etw4j.nativebindings.windows;

import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackendFactory;

/**
 * The ServiceLoader factory of {@link WindowsBackend} ({@value WindowsBackend#NAME}): supported on Windows only,
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

    @Override
    public boolean isSupported() {
        return WindowsLibraries.isWindows() && Runtime.version().feature() >= 23;
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
