package org.etw4j.jfr;

import java.nio.file.Path;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;

/**
 * The program {@link JfrAgentIT} runs in a forked JVM started with {@code -javaagent:etw-jfr-*-agent.jar}: a file
 * session (simulated backend, .etl written by etw-consumer's sink) enables Java-Runtime for GC and thread events,
 * then the program collects garbage and starts threads, and stops the session once the agent has written them.
 *
 * <p>Arguments: the .etl path, the number of rounds (one System.gc() and one started-and-joined thread each).
 */
public final class ForkedWorkload {

    private ForkedWorkload() {
    }

    public static void main(String[] args) throws Exception {
        Path etl = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        try (TraceSession session = TraceSession.start(SessionConfig.file("etw-jfr-it", etl).build())) {
            session.enable(JfrToEtwConfig.DEFAULT_PROVIDER,
                    EnableParameters.of(Level.VERBOSE, Category.GC.keyword() | Category.THREADS.keyword()));
            JfrToEtw bridge = JfrAgent.running();
            if (bridge == null) {
                throw new IllegalStateException("the agent did not start (no -javaagent?)");
            }
            waitFor(bridge::isStreaming, bridge);
            for (int i = 0; i < rounds; i++) {
                System.gc();
                Thread t = new Thread(() -> { }, "etw-jfr-it-worker-" + i);
                t.start();
                t.join();
            }
            // JFR hands events to the stream about once a second: wait until the rounds' events are written
            // (at least one GC and two thread events per round; the JVM adds more of its own).
            waitFor(() -> bridge.eventsWritten() >= 3L * rounds, bridge);
            Thread.sleep(1500); // the rest of the last JFR chunk
            System.out.println("written=" + bridge.eventsWritten() + " failures=" + bridge.writeFailures());
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier c, JfrToEtw bridge) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out: " + bridge);
            }
            Thread.sleep(20);
        }
    }
}
