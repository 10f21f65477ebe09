package org.etw4j.samples.jfr;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.Test;

class JfrToEtwSampleTest {
    @Test
    void garbageCollectionsAndThreadsOfThisJvmArriveAsEtwEvents() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<String> names = JfrToEtwSample.run(new SimulatedBackend(),
                new PrintStream(buf, true, StandardCharsets.UTF_8), Duration.ofSeconds(30));
        String out = buf.toString(StandardCharsets.UTF_8);
        assertTrue(names.contains("jdk.GarbageCollection"), out);
        assertTrue(names.contains("jdk.ThreadStart"), out);
        assertTrue(names.contains("jdk.ThreadEnd"), out);
        assertTrue(names.stream().allMatch(n -> n.startsWith("jdk.")), "only the Java-Runtime provider's events: " + names);
    }
}
