package org.etw4j.samples.logging;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * java.util.logging into ETW through etw-jul's {@code EtwHandler}, configured by {@code logging-etw.properties}
 * (beside this class), and a session printing what it receives.
 *
 * <p>Run: {@code tools/java -cp "samples/target/classes:samples/target/lib/*" org.etw4j.samples.logging.JulSample}
 */
public final class JulSample {
    /** The provider named in logging-etw.properties. */
    static final String PROVIDER = "MyCompany-Orders-Jul";

    private JulSample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    static void run(PrintStream out) throws Exception {
        // A service names its file with -Djava.util.logging.config.file=...; the sample reads its own the same way.
        try (InputStream in = JulSample.class.getResourceAsStream("logging-etw.properties")) {
            LogManager.getLogManager().readConfiguration(in);
        }
        try (SampleSession listening = SampleSession.listen(PROVIDER, out)) {
            Logger log = Logger.getLogger("com.example.Orders");
            log.log(Level.INFO, "order {0} placed", "1001");
            log.log(Level.WARNING, "stock low for {0}", "sku-7");
            log.log(Level.SEVERE, "payment failed for order 1001", new IllegalStateException("card declined"));
        } finally {
            LogManager.getLogManager().reset();
        }
    }
}
