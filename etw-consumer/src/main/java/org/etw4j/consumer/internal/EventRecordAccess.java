package org.etw4j.consumer.internal;

import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.ReadSetupException;
import org.etw4j.consumer.internal.decode.TraceContext;
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

        java.util.function.Function<RawEventRecord, EventRecord> records(ReadSettings manifests, TraceContext context)
                throws ReadSetupException;
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

    /**
     * Events over records that come from neither a file nor a session (made-up records of tests), as a stream
     * presents them: one reused event re-pointed at each record (valid until the next), decoded with the manifests
     * of {@code manifests} (its other settings are not used) and the schemas the records carry, shown through
     * {@code context}, a first pass's.
     *
     * @throws ReadSetupException naming a manifest that cannot be read
     */
    public static java.util.function.Function<RawEventRecord, EventRecord> records(ReadSettings manifests,
                                                                                  TraceContext context)
            throws ReadSetupException {
        return BRIDGE.get().records(manifests, context);
    }
}
