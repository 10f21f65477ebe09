package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.etw4j.Level;
import org.etw4j.junit.CapturedEvents;
import org.etw4j.junit.EtwTest;
import org.etw4j.spi.EtwBackends;
import org.junit.jupiter.api.Test;

/**
 * The demo provider tested the way a user tests theirs: {@code @EtwTest} captures its events (manifest-style ones
 * decoded with the bundled manifest, TraceLogging ones by themselves) and the fluent checks read them.
 */
@EtwTest(providers = DemoEvents.PROVIDER_NAME, level = Level.INFORMATIONAL,
        manifests = "classpath:org/etw4j/cli/" + DemoEvents.MANIFEST)
class DemoEventsCaptureTest {

    @Test
    void theDemoLoadWritesItsRoundsDecodedWithTheManifest(CapturedEvents events) {
        try (DemoLoad load = DemoLoad.start(EtwBackends.getDefault(), 2000)) {
            events.await(e -> "RequestReceived".equals(e.eventName()), 3, Duration.ofSeconds(10), "RequestReceived events");
        } // close() joins the writer: what it wrote is in the session now

        events.assertThat()
                .hasEvent("RequestReceived").withField("RequestId", 0).withField("Path", "/api/items/0").once()
                .and()
                .hasEvent("CacheMiss").withField("Key", "item-1").withField("Size", 16).once()
                .and()
                .hasEvent("Tick").withField("Name", "load").withField("Value", 0.2).once()
                .and()
                .hasNoEventMoreVerboseThan(Level.INFORMATIONAL)
                .doesNotHaveEvent("RequestDetail")
                .doesNotHaveEvent("Sample")
                .hasActivityWith("Job", "RequestReceived", "CacheMiss", "SlowRequest", "Tick")
                .containsInOrder("Job", "RequestReceived", "CacheMiss", "SlowRequest", "Tick", "RequestReceived")
                .hasNoLostEvents();
        assertEquals(events.named("RequestReceived").size(), events.named("Tick").size(), "one of each per round");
    }
}
