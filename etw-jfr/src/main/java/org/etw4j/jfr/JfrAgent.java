package org.etw4j.jfr;

import java.lang.instrument.Instrumentation;

/**
 * The {@code -javaagent:etw-jfr-<version>-agent.jar[=options]} entry points (options: see {@link JfrToEtwConfig}).
 *
 * <p>{@code premain} starts the bridge before {@code main}; {@code agentmain} (dynamic attach) starts it, or
 * restarts it with the new options when it runs already. A shutdown hook closes it. A bad option is reported on
 * standard error and the application runs on without the bridge: an agent must not stop the JVM it observes.
 */
public final class JfrAgent {

    private static JfrToEtw running;

    private JfrAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args);
    }

    public static void premain(String args) {
        start(args);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args);
    }

    public static void agentmain(String args) {
        start(args);
    }

    /** The running bridge, or null. */
    public static synchronized JfrToEtw running() {
        return running;
    }

    private static synchronized void start(String args) {
        try {
            JfrToEtwConfig config = JfrToEtwConfig.parse(args, System.getProperties());
            if (running != null) {
                running.close();
            } else {
                Runtime.getRuntime().addShutdownHook(new Thread(JfrAgent::stop, "etw-jfr-shutdown"));
            }
            running = JfrToEtw.start(config);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("etw-jfr: not started: " + e);
        }
    }

    private static synchronized void stop() {
        if (running != null) {
            running.close();
            running = null;
        }
    }
}
