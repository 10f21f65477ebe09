package org.etw4j.samples.cli;

import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import picocli.CommandLine.Option;

/**
 * The {@code --backend NAME} option of the commands that start sessions.
 *
 * <p>A picocli mixin: one instance per command line, not thread-safe.
 */
final class BackendOption {
    @Option(names = "--backend", paramLabel = "NAME",
            description = "ETW implementation: simulated (pure Java), windows-ffm, ... "
                    + "(default: real ETW on Windows, simulated elsewhere)")
    String name;

    /** The backend chosen. */
    EtwBackend backend() {
        return name == null ? EtwBackends.getDefault() : EtwBackends.choose(name);
    }
}
