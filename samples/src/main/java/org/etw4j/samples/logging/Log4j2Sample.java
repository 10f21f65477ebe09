package org.etw4j.samples.logging;

import java.io.PrintStream;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * Log4j2 logging into ETW through etw-log4j2's {@code <Etw>} appender plugin, configured by
 * {@code log4j2-etw.xml} (beside this class), and a session printing what it receives.
 *
 * <p>Run: {@code tools/java -cp "samples/target/classes:samples/target/lib/*" org.etw4j.samples.logging.Log4j2Sample}
 */
public final class Log4j2Sample {
    /** The provider named in log4j2-etw.xml. */
    static final String PROVIDER = "MyCompany-Orders-Log4j2";

    private Log4j2Sample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    static void run(PrintStream out) throws Exception {
        // A service puts <Etw> into its log4j2.xml; the sample names its own file (as -Dlog4j2.configurationFile would).
        LoggerContext context = Configurator.initialize("etw4j-sample", Log4j2Sample.class.getClassLoader(),
                Log4j2Sample.class.getResource("log4j2-etw.xml").toURI());
        try (SampleSession listening = SampleSession.listen(PROVIDER, out)) {
            Logger log = context.getLogger("com.example.Orders");
            ThreadContext.put("requestId", "r-42");
            log.info("order {} placed", 1001);
            log.warn("stock low for {}", "sku-7");
            log.fatal("payment failed for order {}", 1001, new IllegalStateException("card declined"));
            ThreadContext.clearMap();
        } finally {
            Configurator.shutdown(context);
        }
    }
}
