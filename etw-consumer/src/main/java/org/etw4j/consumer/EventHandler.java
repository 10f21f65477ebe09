package org.etw4j.consumer;

import java.util.Objects;
import java.util.function.Consumer;
import org.etw4j.Guid;

/**
 * One action registered on a stream with its routing key (provider, event id, event name; null / -1: any).
 * Immutable; matching reads the provider id without allocating and decodes only for a name.
 */
final class EventHandler {
    private final boolean anyProvider;
    private final long msb;
    private final long lsb;
    private final int eventId;
    private final String name;
    private final Consumer<EventRecord> action;

    EventHandler(Guid provider, int eventId, String name, Consumer<EventRecord> action) {
        this.anyProvider = provider == null;
        this.msb = provider == null ? 0 : provider.mostSignificantBits();
        this.lsb = provider == null ? 0 : provider.leastSignificantBits();
        this.eventId = eventId;
        this.name = name;
        this.action = Objects.requireNonNull(action, "action");
    }

    Consumer<EventRecord> action() {
        return action;
    }

    boolean matches(EventRecord r) {
        if (!anyProvider && (r.providerIdMsb() != msb || r.providerIdLsb() != lsb)) {
            return false;
        }
        if (eventId >= 0 && r.eventId() != eventId) {
            return false;
        }
        return name == null || name.equals(r.eventName());
    }
}
