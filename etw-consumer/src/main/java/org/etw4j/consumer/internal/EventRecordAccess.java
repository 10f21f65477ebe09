package org.etw4j.consumer.internal;

import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventView;

/**
 * What {@link EventRecord} keeps out of its public API, for etw4j's own formatters ({@code etw dump} and
 * {@code etw live} write from the record's backend form and decoded view): the record as the backend SPI type, its
 * reused decoded view shown through the trace context, and its decoded value. Applications read the record's own
 * getters; this bridge is the JDK's "shared secrets" pattern, set once by {@code EventRecord}'s class initializer.
 *
 * <p>Thread-safe; stateless apart from the bridge.
 */
public final class EventRecordAccess {
    /** The bridge EventRecord implements. */
    public interface Bridge {
        RawEventRecord raw(EventRecord e);

        EventView view(EventRecord e);

        DecodedEvent decoded(EventRecord e);
    }

    private static final Bridged<Bridge> BRIDGE = new Bridged<>("EventRecord");

    private EventRecordAccess() {
    }

    /**
     * Installs the bridge; called once, by {@code EventRecord}.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    public static void install(Bridge b) {
        BRIDGE.install(b);
    }

    /** The record as the backend SPI type ({@code EVENT_RECORD}): a view unless {@code e} is a copy. */
    public static RawEventRecord raw(EventRecord e) {
        return BRIDGE.get().raw(e);
    }

    /** {@code e} decoded into its stream's or reader's reused view, shown through the trace context. */
    public static EventView view(EventRecord e) {
        return BRIDGE.get().view(e);
    }

    /** {@code e}'s decoded value (computed on first use, then kept). */
    public static DecodedEvent decoded(EventRecord e) {
        return BRIDGE.get().decoded(e);
    }
}
