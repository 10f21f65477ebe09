package org.etw4j.jfr;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JfrAgentTest {

    @Test
    void aBadOptionIsReportedAndTheApplicationRunsOn() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            JfrAgent.agentmain("color=red"); // must not throw into the JVM being observed
        } finally {
            System.setErr(err);
        }
        assertNull(JfrAgent.running());
        String msg = captured.toString(StandardCharsets.UTF_8);
        assertTrue(msg.contains("etw-jfr: not started") && msg.contains("color"), msg);
    }
}
