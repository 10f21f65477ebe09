package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.etw4j.Level;
import org.etw4j.junit.CapturedEvents;
import org.etw4j.junit.EtwTest;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;

/** What a user writes: the service's events captured by @EtwTest, beside a plain test that must run too. */
class OrderServiceEventsTest {
    private static final TraceLoggingEvent ORDER_PLACED = TraceLoggingEvent.builder("OrderPlaced")
            .level(Level.INFORMATIONAL).int32Field("items").stringField("customer").build();

    @Test
    @EtwTest(providers = "Example-OrderService")
    void placingAnOrderWritesOrderPlaced(CapturedEvents events) {
        try (EtwProvider provider = EtwProvider.register("Example-OrderService")) {
            provider.event(ORDER_PLACED).int32(3).string("ada").write();
        }
        events.assertThat().hasEvent("OrderPlaced").withField("items", 3).withField("customer", "ada");
    }

    @Test
    void runsOnTheJUnitVersionAskedFor() {
        assertEquals(System.getProperty("expected.junit.version"), Test.class.getPackage().getImplementationVersion());
    }

    @Test
    void aPlainTestStillRuns() {
        assertEquals(4, 2 + 2);
    }
}
