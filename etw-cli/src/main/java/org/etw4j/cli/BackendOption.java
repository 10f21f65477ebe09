package org.etw4j.cli;

import java.util.Locale;
import java.util.ServiceConfigurationError;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import picocli.CommandLine.Option;

/**
 * The {@code --backend NAME} option of the commands that start sessions.
 *
 * <p>A picocli mixin: one instance per command line, not thread-safe. Without the option (and without the
 * {@code etw4j.backend} system property) the backend is {@link EtwBackends#getDefault()} on Windows and the
 * process-wide simulated one elsewhere, where no other backend can work; the latter does not go through
 * {@link java.util.ServiceLoader}, so a broken or Windows-only backend jar on the class path cannot stop it.
 */
final class BackendOption {
    @Option(names = "--backend", paramLabel = "NAME",
            description = "ETW implementation: simulated (pure Java), windows-ffm, ... "
                    + "(default: real ETW on Windows, simulated elsewhere)")
    String name;

    /** The backend chosen. */
    EtwBackend backend() {
        try {
            if (name != null) {
                // The simulated backend needs no discovery (and is the one EtwBackends would create anyway).
                return name.trim().equalsIgnoreCase(SimulatedBackend.NAME) ? SimulatedBackend.shared() : EtwBackends.choose(name);
            }
            boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
            if (!windows && System.getProperty(EtwBackends.PROPERTY) == null) {
                return SimulatedBackend.shared();
            }
            return EtwBackends.getDefault();
        } catch (ServiceConfigurationError e) {
            throw new CliException("could not load the ETW backends (" + EtwCommand.oneLine(e)
                    + "); --backend simulated may still work", e);
        }
    }
}
