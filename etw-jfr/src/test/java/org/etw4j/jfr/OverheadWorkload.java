package org.etw4j.jfr;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;

/**
 * The whole-process overhead figure of PERFORMANCE.md ("JFR to ETW"): a small allocating, thread-starting
 * workload timed inside the process, run without the agent, with the agent and no session, and with the agent
 * and a file session enabling every Java-Runtime keyword at level 5. Not a test; run by hand (see PERFORMANCE.md).
 *
 * <p>Arguments: {@code none} or an .etl path (then a file session enables Java-Runtime), the number of rounds.
 */
public final class OverheadWorkload {

    private OverheadWorkload() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[1]);
        TraceSession session = null;
        if (!args[0].equals("none")) {
            session = TraceSession.start(SessionConfig.file("etw-jfr-overhead", Path.of(args[0])).build());
            session.enable(JfrToEtwConfig.DEFAULT_PROVIDER, EnableParameters.of(Level.VERBOSE, -1L));
            JfrToEtw bridge = JfrAgent.running();
            while (bridge != null && !bridge.isStreaming()) {
                Thread.sleep(10);
            }
        }
        long sink = 0;
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            Map<Integer, String> m = new HashMap<>();
            for (int i = 0; i < 200_000; i++) {
                m.put(i, Integer.toString(i * r));
            }
            sink += m.size();
            Thread t = new Thread(() -> { }, "overhead-" + r);
            t.start();
            t.join();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        JfrToEtw bridge = JfrAgent.running();
        System.out.println("workMs=" + ms + " sink=" + sink + " written=" + (bridge == null ? -1 : bridge.eventsWritten()));
        if (session != null) {
            session.close();
        }
    }
}
