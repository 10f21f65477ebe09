package org.etw4j.samples.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * SLF4J + Logback logging into ETW through etw-logback's {@code EtwAppender}, configured by
 * {@code logback-etw.xml} (beside this class), and a session printing what it receives.
 *
 * <p>Run: {@code tools/java -cp "samples/target/classes:samples/target/lib/*" org.etw4j.samples.logging.LogbackSample}
 */
public final class LogbackSample {
    /** The provider named in logback-etw.xml. */
    static final String PROVIDER = "MyCompany-Orders-Logback";

    private LogbackSample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    static void run(PrintStream out) throws Exception {
        // A service puts the <appender> into its logback.xml; the sample loads its own file the same way Logback does.
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(LogbackSample.class.getResource("logback-etw.xml"));
        try (SampleSession listening = SampleSession.listen(PROVIDER, out)) {
            Logger log = LoggerFactory.getLogger("com.example.Orders");
            MDC.put("requestId", "r-42");
            log.info("order {} placed", 1001);
            log.warn("stock low for {}", "sku-7");
            log.error("payment failed for order {}", 1001, new IllegalStateException("card declined"));
            MDC.clear();
        } finally {
            context.stop();
        }
    }
}
