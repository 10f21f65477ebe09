package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.etw4j.controller.TraceSession;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.consumer.EventRecord;
import org.junit.jupiter.api.Test;

/** The example of the README: testing the events of an instrumented service with {@code @EtwTest}. */
@EtwTest(providers = OrderService.PROVIDER)
class ProviderExampleTest extends WithOrderService {
    @Test
    void placingAnOrderLogsItsEventsWithTheirFields(CapturedEvents events) {
        service.place("A-17", new String[] {"book", "pen"}, 23.5, true);

        events.assertThat()
                .hasEvent("OrderPlaced").withField("orderId", "A-17").withField("items", 2).withField("total", 23.5)
                        .withLevel(Level.INFORMATIONAL).withKeyword(OrderService.KEYWORD_ORDERS).once()
                .and()
                .hasCount("CartDetail", 2)
                .hasEvent("CartDetail").withField("sku", "pen").withField("quantity", 1).once()
                .and()
                .containsInOrder("Order", "CartDetail", "CartDetail", "OrderPlaced", "Payment", "Payment", "Order")
                .doesNotHaveEvent("PaymentDeclined")
                .hasNoEventMoreSevereThan(Level.INFORMATIONAL)
                .hasNoLostEvents();
        // START + 2 details + placed + payment START/STOP + STOP
        assertEquals(7, events.size());
    }

    @Test
    void theActivitiesNestAndCorrelate(CapturedEvents events) {
        service.place("B-2", new String[] {"cup"}, 4.0, false);

        EventsAssert check = events.assertThat()
                .hasActivityWith("Order", "CartDetail", "OrderPlaced")
                .hasActivityWith("Payment", "PaymentDeclined")
                .hasChildActivity("OrderPlaced", "Payment");
        EventRecord orderStart = check.hasEvent("Order").withOpcode(Opcode.START).once().first();
        EventRecord paymentStart = check.hasEvent("Payment").withOpcode(Opcode.START).once().first();
        assertEquals(orderStart.activityId(), paymentStart.relatedActivityId(), "the payment activity's parent is the order's");
        assertNotEquals(orderStart.activityId(), paymentStart.activityId());
        List<EventRecord> inPayment = events.inActivity(paymentStart.activityId());
        assertEquals(List.of("Payment", "PaymentDeclined", "Payment"), inPayment.stream().map(EventRecord::eventName).toList());
        check.hasEvent("PaymentDeclined").withLevel(Level.WARNING).withField("reason", "card refused")
                .withActivityId(paymentStart.activityId()).once();
    }

    @Test
    @EtwTest(providers = OrderService.PROVIDER, level = Level.WARNING)
    void aWarningSessionGetsOnlyWarnings(CapturedEvents events) {
        service.place("C-3", new String[] {"lamp"}, 40.0, false);

        events.assertThat()
                .hasNoEventMoreVerboseThan(Level.WARNING)
                .hasEvent("PaymentDeclined").withField("orderId", "C-3").once();
        assertEquals(1, events.size());
    }

    @Test
    @EtwTest(providers = OrderService.PROVIDER, matchAnyKeyword = OrderService.KEYWORD_PAYMENTS)
    void aKeywordSelectsItsEvents(CapturedEvents events) {
        service.place("D-4", new String[] {"mug"}, 8.0, false);

        events.assertThat().containsExactlyInOrder("Payment", "PaymentDeclined", "Payment")
                .allSatisfy("carry the payments keyword", e -> e.keyword() == OrderService.KEYWORD_PAYMENTS);
    }

    @Test
    void verboseEventsAreWrittenOnlyWhileTheSessionListens(CapturedEvents events) {
        assertTrue(service.provider().isEnabled(Level.VERBOSE.value(), OrderService.KEYWORD_ORDERS), "the test's session enables the provider");
        // wait until the provider has seen the disable: its callback runs on a notification thread (EnableTraceEx2's Timeout)
        events.session().disable(TraceSession.resolve(OrderService.PROVIDER), java.time.Duration.ofSeconds(10));
        assertFalse(service.provider().isEnabled(Level.VERBOSE.value(), OrderService.KEYWORD_ORDERS));
        service.place("E-5", new String[] {"fork"}, 1.0, true);
        events.assertThat().isEmpty();
    }
}
