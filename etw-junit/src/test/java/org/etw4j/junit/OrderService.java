package org.etw4j.junit;

import org.etw4j.Level;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * The code under test of the examples: a service instrumented with TraceLogging events, as a user would write it
 * (registered on the default backend, events written only when a session listens).
 */
final class OrderService implements AutoCloseable {
    static final String PROVIDER = "Etw4j-JUnit-Example-Orders";
    static final long KEYWORD_ORDERS = 0x1;
    static final long KEYWORD_PAYMENTS = 0x2;

    static final TraceLoggingEvent ORDER = TraceLoggingEvent.builder("Order").level(Level.INFORMATIONAL).keyword(KEYWORD_ORDERS).build();
    static final TraceLoggingEvent ORDER_PLACED = TraceLoggingEvent.builder("OrderPlaced").level(Level.INFORMATIONAL)
            .keyword(KEYWORD_ORDERS).stringField("orderId").int32Field("items").doubleField("total").build();
    static final TraceLoggingEvent PAYMENT = TraceLoggingEvent.builder("Payment").level(Level.INFORMATIONAL).keyword(KEYWORD_PAYMENTS).build();
    static final TraceLoggingEvent PAYMENT_DECLINED = TraceLoggingEvent.builder("PaymentDeclined").level(Level.WARNING)
            .keyword(KEYWORD_PAYMENTS).stringField("orderId").stringField("reason").build();
    static final TraceLoggingEvent CART_DETAIL = TraceLoggingEvent.builder("CartDetail").level(Level.VERBOSE).keyword(KEYWORD_ORDERS)
            .stringField("sku").uint32Field("quantity").build();

    private final EtwProvider provider;

    OrderService() {
        this(PROVIDER);
    }

    OrderService(String providerName) {
        provider = EtwProvider.register(providerName);
    }

    /** Places an order: an Order activity, a CartDetail per item, OrderPlaced, and a nested Payment activity. */
    void place(String orderId, String[] skus, double total, boolean cardAccepted) {
        try (ActivityScope order = provider.startActivity(ORDER)) {
            for (String sku : skus) {
                if (provider.isEnabled(CART_DETAIL.descriptor())) {
                    provider.event(CART_DETAIL).string(sku).uint32(1).write();
                }
            }
            provider.event(ORDER_PLACED).string(orderId).int32(skus.length).float64(total).write();
            try (ActivityScope payment = provider.startActivity(PAYMENT)) {
                if (!cardAccepted) {
                    provider.event(PAYMENT_DECLINED).string(orderId).string("card refused").write();
                }
            }
        }
    }

    EtwProvider provider() {
        return provider;
    }

    @Override
    public void close() {
        provider.close();
    }
}
