package org.etw4j.samples.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

class OpenTelemetryToEtwTest {
    @Test
    void twoSpansAndALogArriveAsActivitiesAndEvents() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int received = OpenTelemetryToEtw.run(new SimulatedBackend(), new PrintStream(buf, true, StandardCharsets.UTF_8));
        String out = buf.toString(StandardCharsets.UTF_8);
        // START, STOP and "Span" per span, one "Log"
        assertEquals(7, received, out);
        assertTrue(out.contains("GET /orders opcode=1"), out);
        assertTrue(out.contains("Log        opcode=0"), out);
        assertTrue(out.contains("body=slow query"), out);
    }
}
