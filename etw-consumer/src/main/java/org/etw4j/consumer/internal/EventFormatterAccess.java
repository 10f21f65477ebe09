package org.etw4j.consumer.internal;

import java.time.Instant;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;

/**
 * What {@link EventFormatter} keeps out of its public API because it names the decoder's types: writing a record
 * with its decoded view (the parallel dump's workers, the formatter benchmark), {@code EventRecord}'s one-line forms
 * and the text/JSON forms of a decoded value (the decoder's tests and messages). Applications format
 * {@link org.etw4j.consumer.EventRecord}s. The JDK's "shared secrets" pattern, as {@link EventRecordAccess}; set by
 * {@code EventFormatter}'s class initializer, which this class runs first.
 *
 * <p>Thread-safe; stateless apart from the bridge. The formatter passed to {@link #write} is not thread-safe.
 */
public final class EventFormatterAccess {
    /** The bridge EventFormatter implements. */
    public interface Bridge {
        void write(EventFormatter f, RawEventRecord r, EventView e, Instant time);

        void write(EventFormatter f, RawEventRecord r, DecodedEvent e, Instant time);

        String line(EventFormat format, RawEventRecord r, DecodedEvent e, ProcessInfo process, Instant time);

        String text(DecodedEvent e);

        String json(DecodedEvent e);
    }

    private static final Bridged<Bridge> BRIDGE = new Bridged<>("EventFormatter");

    static {
        try { // EventFormatter installs the bridge when it initializes; a static call here may come first
            Class.forName(EventFormatter.class.getName(), true, EventFormatterAccess.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private EventFormatterAccess() {
    }

    /**
     * Installs the bridge; called once, by {@code EventFormatter}.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    public static void install(Bridge b) {
        BRIDGE.install(b);
    }

    /** Writes one event: {@code r} for the header fields, {@code e} its decoded form (valid during the call). */
    public static void write(EventFormatter f, RawEventRecord r, EventView e, Instant time) {
        BRIDGE.get().write(f, r, e, time);
    }

    /** Writes one event: {@code r} for the header fields, {@code e} its decoded value. */
    public static void write(EventFormatter f, RawEventRecord r, DecodedEvent e, Instant time) {
        BRIDGE.get().write(f, r, e, time);
    }

    /** One event as one line of {@code format}, as {@code EventRecord.toString()/toJson()} give it. */
    public static String line(EventFormat format, RawEventRecord r, DecodedEvent e, ProcessInfo process,
                              Instant time) {
        return BRIDGE.get().line(format, r, e, process, time);
    }

    /** The decoded event's text form from the provider on, {@code Provider/Event Name=value; ...}. */
    public static String text(DecodedEvent e) {
        return BRIDGE.get().text(e);
    }

    /** The decoded event as one typed JSON object (Spark's {@code fields_json} form). */
    public static String json(DecodedEvent e) {
        return BRIDGE.get().json(e);
    }
}
