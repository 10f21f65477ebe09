package org.etw4j.cli;

import picocli.CommandLine;

/**
 * The {@code etw --version} text: etw4j's version (from the jar manifest when packaged) and the Java running it.
 *
 * <p>Stateless; thread-safe.
 */
public final class Versions implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = EtwCommand.class.getPackage().getImplementationVersion();
        return new String[] {
            "etw4j " + (v == null ? "(development build)" : v),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + "), "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch")
        };
    }
}
