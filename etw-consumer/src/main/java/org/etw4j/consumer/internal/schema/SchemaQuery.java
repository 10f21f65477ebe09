package org.etw4j.consumer.internal.schema;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventSchema;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.ProviderManifest;

/**
 * One event's walk along a decoder's {@link SchemaProvider} chain: the record and what the providers said about it.
 * At most one answer: a schema to read the payload with ({@link #found}), or an event a provider decoded itself
 * ({@link #decoded}); without one, the names and notes of the event nothing describes ({@link #describeMiss},
 * {@link #addMissNotes}).
 *
 * <p>Not thread-safe, reusable: a reusable view keeps one and resets it for every event (the chain then allocates
 * nothing for the common shapes); a decode to a value makes its own. It refers to the record only between
 * {@link #reset} and {@link #clear}.
 */
public final class SchemaQuery {

    /** What the chain concluded. */
    public enum Outcome {
        /** Nothing describes the event (yet). */
        OPEN,
        /** A schema describes it: {@link #schema()}, with {@link #notes()}. */
        SCHEMA,
        /** A provider decoded it itself: {@link #event()}. */
        EVENT
    }

    private RawEventRecord record;
    private Guid provider;
    private boolean classic;
    private int pointerSize;
    private ByteBuffer userData;
    private boolean manifestLooked;
    private ProviderManifest manifest;

    private Outcome outcome = Outcome.OPEN;
    private EventSchema schema;
    private List<String> notes = List.of();
    private DecodedEvent event;

    private boolean missDescribed;
    private String missProviderName;
    private String missEventName;
    private String missTaskName;
    private int missEventId;
    private List<String> missNotes = List.of();
    private List<String> extraNotes = List.of();
    private boolean missAsValue;

    /**
     * Starts the walk for {@code r}, whose provider (or event class) is {@code provider}. Fields read only behind
     * a flag or an outcome (the answer, the miss description) are not cleared: per event this costs a few stores.
     */
    public void reset(RawEventRecord r, Guid provider, boolean classic) {
        this.record = r;
        this.provider = provider;
        this.classic = classic;
        this.pointerSize = r.pointerSize() == 4 ? 4 : 8;
        this.manifestLooked = false;
        this.outcome = Outcome.OPEN;
        this.missDescribed = false;
        this.missAsValue = false;
        this.extraNotes = List.of();
    }

    /** Drops the references to the record and the answer, once the decoder has read the event. */
    public void clear() {
        record = null;
        userData = null;
        manifest = null;
        schema = null;
        notes = List.of();
        event = null;
        missNotes = List.of();
    }

    /** The record (valid during the walk only). */
    public RawEventRecord record() {
        return record;
    }

    /** The provider GUID, or the event-class GUID of a classic record. */
    public Guid provider() {
        return provider;
    }

    /** Whether the record has the classic header flag. */
    public boolean classic() {
        return classic;
    }

    /** 4 or 8: the pointer size the record was written with. */
    public int pointerSize() {
        return pointerSize;
    }

    /**
     * The user data in little-endian order, made on first use (a view reads the payload in place, so this slice
     * would be its only allocation per event); the record's own buffer when it already is little-endian.
     * Readers use absolute indexes and never move its position.
     */
    public ByteBuffer userData() {
        if (userData == null) {
            ByteBuffer b = record.userData();
            userData = b.order() == ByteOrder.LITTLE_ENDIAN ? b : b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        }
        return userData;
    }

    /** {@code registry}'s manifest for the provider, or {@code null}; looked up once per walk. */
    public ProviderManifest manifest(ManifestRegistry registry) {
        if (!manifestLooked) {
            manifest = registry.provider(provider);
            manifestLooked = true;
        }
        return manifest;
    }

    /** Answers: {@code s} describes the event; {@code why} are the notes it gets (e.g. an older version used). */
    public boolean found(EventSchema s, List<String> why) {
        outcome = Outcome.SCHEMA;
        schema = s;
        notes = why;
        return true;
    }

    /** Answers: the provider decoded the event itself ({@code e} is what a decode to a value returns). */
    public boolean decoded(DecodedEvent e) {
        outcome = Outcome.EVENT;
        event = e;
        return true;
    }

    /**
     * How the event should be named if nothing describes it: a provider that knows the provider (or the event
     * class) but not this event says so. The first description stays.
     */
    public void describeMiss(String providerName, String eventName, String taskName, int eventId, List<String> why) {
        if (!missDescribed) {
            missDescribed = true;
            missProviderName = providerName;
            missEventName = eventName;
            missTaskName = taskName;
            missEventId = eventId;
            missNotes = why;
        }
    }

    /**
     * Adds notes to an event nothing describes (a provider asked and was told why not); such an event is built as
     * a value, not read into a view.
     */
    public void addMissNotes(List<String> more) {
        missAsValue = true;
        if (!more.isEmpty()) {
            List<String> all = new ArrayList<>(extraNotes);
            all.addAll(more);
            extraNotes = all;
        }
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The schema of a {@link Outcome#SCHEMA} answer. */
    public EventSchema schema() {
        return schema;
    }

    /** The notes of a {@link Outcome#SCHEMA} answer. */
    public List<String> notes() {
        return notes;
    }

    /** The event of a {@link Outcome#EVENT} answer. */
    public DecodedEvent event() {
        return event;
    }

    /** Whether a provider described the miss ({@link #describeMiss}). */
    public boolean missDescribed() {
        return missDescribed;
    }

    public String missProviderName() {
        return missProviderName;
    }

    public String missEventName() {
        return missEventName;
    }

    public String missTaskName() {
        return missTaskName;
    }

    public int missEventId() {
        return missEventId;
    }

    public List<String> missNotes() {
        return missNotes;
    }

    /** Notes {@link #addMissNotes} added (empty when none). */
    public List<String> extraNotes() {
        return extraNotes;
    }

    /** Whether an event nothing describes must be built as a value ({@link #addMissNotes} was called). */
    public boolean missAsValue() {
        return missAsValue;
    }
}
