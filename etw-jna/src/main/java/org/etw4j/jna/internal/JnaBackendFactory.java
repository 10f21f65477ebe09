package org.etw4j.jna.internal;

import com.sun.jna.Native;
import java.util.Locale;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackendFactory;

/**
 * ServiceLoader factory of the {@link JnaEtwBackend}: name {@value JnaEtwBackend#NAME}, priority {@value #PRIORITY},
 * supported on 64-bit Windows when advapi32's provider functions load.
 *
 * <p>Stateless; thread-safe. The priority is above the simulated backend (0), so on Windows with Java 17/21
 * providers reach real ETW by default; the FFM backend, where present, is meant to rank higher.
 */
public final class JnaBackendFactory implements EtwBackendFactory {
    /** This factory's priority. */
    public static final int PRIORITY = 50;

    @Override
    public String name() {
        return JnaEtwBackend.NAME;
    }

    @Override
    public boolean isSupported() {
        return unsupportedReason().equals("supported");
    }

    /** Why this backend cannot run here: not Windows, a 32-bit JVM, or JNA or advapi32 failing to load (its error). */
    @Override
    public String unsupportedReason() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
            return "not Windows";
        }
        try {
            if (Native.POINTER_SIZE != 8) {
                return "a 32-bit JVM: PVOID arguments are bound as 64-bit values (see Advapi32), use a 64-bit JVM";
            }
            Advapi32.bind();
            return "supported";
        } catch (LinkageError e) {
            return "JNA or advapi32 could not be loaded: " + e; // JNA's own native part or advapi32
        }
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public EtwBackend create() {
        return new JnaEtwBackend();
    }
}
