package org.etw4j.jna;

import com.sun.jna.Native;
import java.util.Locale;
import org.etw4j.jna.internal.Advapi32;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackendFactory;

/**
 * ServiceLoader factory of the {@link JnaBackend}: name {@value JnaBackend#NAME}, priority {@value #PRIORITY},
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
        return JnaBackend.NAME;
    }

    @Override
    public boolean isSupported() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
            return false;
        }
        try {
            if (Native.POINTER_SIZE != 8) {
                return false; // PVOID arguments are bound as 64-bit values (see Advapi32)
            }
            Advapi32.bind();
            return true;
        } catch (LinkageError e) {
            return false; // JNA's own native part or advapi32 cannot load
        }
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public EtwBackend create() {
        return new JnaBackend();
    }
}
