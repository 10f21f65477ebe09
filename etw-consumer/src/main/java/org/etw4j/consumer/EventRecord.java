package org.etw4j.consumer;

import static org.etw4j.format.EventHeaderLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.TimestampConverter;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.consumer.internal.EventRecordAccess;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.format.EventHeaderView;
import org.etw4j.format.PrimitiveReader;
import org.etw4j.tracelogging.ProviderTraits;
import org.etw4j.tracelogging.TraceLoggingDecodeException;
import org.etw4j.tracelogging.TraceLoggingSchema;

/**
 * The one event type of the reading API: what an {@link EventStream} hands its handlers and {@link TraceFile}
 * returns, live or from files. Header facts, extended data, raw user data, the process, and decoded fields in the
 * manner of {@code jdk.jfr.consumer.RecordedEvent} / {@code RecordedObject}.
 *
 * <p>Threading, reuse and lifetime: what a handler receives is a <b>view</b> when the stream hands records over
 * directly ({@link Backpressure#NONE}, and file streams) and what {@link TraceFile#readEvent()} returns with
 * {@link ReadSettings#reuse()} (JFR's reuse setting): one object per stream or reader, re-pointed at each record,
 * valid only during the handler call (until the next event), not thread-safe. Keep one with {@link #copy()}, which returns an
 * immutable, thread-safe record independent of the trace's buffers. Records that crossed a stream's queue are
 * copies already ({@link #isCopy()}). Header getters on a view read the buffer in place and allocate nothing
 * unless they return objects; decoding ({@link #getFields()} and friends, {@link #eventName()},
 * {@link #providerName()}) happens on first use, once per record, into the view's reused decoding target. The
 * by-name getters ({@link #hasField}, {@link #getLong}, {@link #getInt}, {@link #getDouble}, {@link #getBoolean},
 * {@link #getString}, {@link #getValue}, {@link #getField}) of a view read a top-level field from that target
 * without building the whole decoded event when the decoder reads the event in place (flat manifest, kernel MOF
 * and TDH templates; not TraceLogging, structs, dotted paths, nor events the trace context gives file names),
 * and allocate only what they return; otherwise, and on copies, they answer from the decoded event, made once.
 *
 * <p>Decoding: TraceLogging events from their own schema (the {@code EVENT_SCHEMA_TL} extended item, parsed once
 * per distinct metadata blob); manifest events with the manifests registered on the stream
 * ({@link EventStream#addManifest}) or carried in the trace (EventSource manifest events); kernel and classic
 * events with the built-in MOF layouts. An event no schema
 * describes has no fields, only its raw {@link #userData()}.
 *
 * <p>One presentation, as {@code etw dump} writes the event and as TraceEvent and WPA show it: the fields, names,
 * process and texts come from the event decoded and shown through the stream's or reader's trace context (file
 * names in drive-letter form as field labels, the NT path staying the value; a {@code FileName} derived from a
 * FileIO event's {@code FileKey}; the process the kernel's process events attribute it to). {@link #toString()}
 * and {@link #toJson()} are dump's text and JSON Lines lines, to the nanosecond of {@link #exactTimestamp()}.
 * The header getters stay the record's own facts: {@link #processId()} is the header's process id (-1 for kernel
 * records without one) and {@link #process()} the attributed process (TraceEvent's {@code PID}/{@code PName});
 * {@link #timestamp()} is the FILETIME, 100 ns, as {@code EVENT_RECORD} and TraceEvent's {@code TimeStamp} give it.
 *
 * <p>Header facts per kind (file streams also deliver kernel, classic and WPP records): see
 * {@link org.etw4j.consumer.etl.EtlRecordView}; fields a header kind lacks read 0 (ids -1).
 */
public final class EventRecord {
    static {
        EventRecordAccess.install(new EventRecordAccess.Bridge() {
            @Override
            public RawEventRecord raw(EventRecord e) {
                return e.raw();
            }

            @Override
            public EventView view(EventRecord e) {
                return e.view();
            }

            @Override
            public DecodedEvent decoded(EventRecord e) {
                return e.decodedValue();
            }

            @Override
            public java.util.function.Function<RawEventRecord, EventRecord> records(ReadSettings manifests,
                                                                                   TraceContext context)
                    throws ReadSetupException {
                RecordDecoding d = new RecordDecoding();
                manifests.registerManifests(d.decoder.manifests());
                d.learned(context);
                EventRecord event = new EventRecord(d);
                return r -> {
                    event.resetLive(r);
                    return event;
                };
            }
        });
    }

    private final RecordDecoding decoding;
    private final boolean copy;
    private RawEventRecord raw;
    private HeaderKind kind;
    private long rawTimestamp;
    private long fileTime;
    /**
     * A copy's timestamp as {@link #exactTimestamp()} gave it on the view it was copied from (a file record's clock
     * converted to the nanosecond); null for views, which read it from {@link #fileView}, and for live copies.
     */
    private Instant exact;
    /** The reader's record while this view shows a file record: its header facts are read on demand. */
    private EtlRecordView fileView;
    /** The event decoded and shown through the trace context, as a value (made on first use, kept by copies). */
    private DecodedEvent decoded;
    private TraceLoggingSchema tlSchema;
    private boolean tlLooked;
    /** The reused decoding target of {@link #view()} (made on first use) and whether it holds this record. */
    private EventView eventView;
    private boolean viewDecoded;

    /** A reusable view. */
    EventRecord(RecordDecoding decoding) {
        this.decoding = decoding;
        this.copy = false;
    }

    private EventRecord(RecordDecoding decoding, RawEventRecord owned, HeaderKind kind, long rawTimestamp, long fileTime,
                        Instant exact, DecodedEvent decoded, TraceLoggingSchema tlSchema, boolean tlLooked) {
        this.decoding = decoding;
        this.copy = true;
        this.raw = owned;
        this.kind = kind;
        this.rawTimestamp = rawTimestamp;
        this.fileTime = fileTime;
        this.exact = exact;
        this.decoded = decoded;
        this.tlSchema = tlSchema;
        this.tlLooked = tlLooked;
    }

    /** Points this view at a live record (an EVENT_RECORD from the backend). */
    void resetLive(RawEventRecord r) {
        raw = r;
        fileView = null;
        kind = liveKind(r);
        rawTimestamp = liveRawTimestamp(r);
        fileTime = r.timestamp();
        clearDecoded();
    }

    /** What ProcessTrace's flags say about the stored header. */
    private static HeaderKind liveKind(RawEventRecord r) {
        int f = r.flags();
        return (f & FLAG_CLASSIC_HEADER) != 0 ? HeaderKind.EVENT_TRACE_HEADER
                : (f & FLAG_TRACE_MESSAGE) != 0 ? HeaderKind.MESSAGE_TRACE_HEADER : HeaderKind.EVENT_HEADER;
    }

    /** The stored timestamp when the record is viewed in place, else the delivered one. */
    private static long liveRawTimestamp(RawEventRecord r) {
        return r instanceof EventHeaderView v ? v.rawTimestamp() : r.timestamp();
    }

    /** Points this view at the reader's current record. */
    void resetFile(EtlRecordEvent a) {
        // A file reader re-points the same adapter at the same view for every record: storing a reference only
        // when it changed spares the garbage collector's write barrier on the per-record path.
        if (raw != a) {
            raw = a;
        }
        EtlRecordView v = a.view();
        if (fileView != v) {
            fileView = v;
        }
        clearDecoded();
    }

    private void clearDecoded() {
        viewDecoded = false;
        decoded = null;
        tlSchema = null;
        tlLooked = false;
    }

    /** A copy of a live record, made on the delivery thread to cross a queue. */
    static EventRecord copyOf(RawEventRecord r, RecordDecoding decoding) {
        return new EventRecord(decoding, org.etw4j.RecordSnapshot.of(r), liveKind(r), liveRawTimestamp(r), r.timestamp(), null, null, null,
                false);
    }

    // ------------------------------------------------------------------------------------------ lifetime

    /**
     * An immutable copy that stays valid after the callback (this record itself when it is a copy). It answers
     * every getter as this view does now: the same timestamps ({@link #exactTimestamp()} included), fields, names
     * and process. The event is decoded and shown through the trace context here, on the calling thread, if it was
     * not yet: a live record can still ask the machine's TDH for its schema, and the copy does not depend on what
     * the stream's context learns later.
     */
    public EventRecord copy() {
        if (copy) {
            return this;
        }
        DecodedEvent d = decodedValue();
        return new EventRecord(decoding, org.etw4j.RecordSnapshot.of(raw), headerKind(), timestampRaw(), fileTime(),
                fileView != null ? fileView.timestampInstant() : null, d, tlSchema, tlLooked);
    }

    /** Whether this record is an owned copy (valid forever) rather than a view. */
    public boolean isCopy() {
        return copy;
    }

    /** The record as the backend SPI type (a view unless this is a copy). */
    RawEventRecord raw() {
        return raw;
    }

    // -------------------------------------------------------------------------------------- header

    /** The header kind the record was stored with (live records: EVENT_HEADER, or EVENT_TRACE_HEADER for classic). */
    public HeaderKind headerKind() {
        EtlRecordView v = fileView;
        return v != null ? v.kind() : kind;
    }

    /** The provider id (classic and kernel records: the event-class / kernel group GUID). */
    public Guid providerId() {
        return raw.providerId();
    }

    /** High half of the provider id, without allocating. */
    public long providerIdMsb() {
        return raw.providerIdMsb();
    }

    /** Low half of the provider id, without allocating. */
    public long providerIdLsb() {
        return raw.providerIdLsb();
    }

    /** Whether the provider is {@code provider}, without allocating. */
    public boolean isProvider(Guid provider) {
        return raw.providerIdMsb() == provider.mostSignificantBits() && raw.providerIdLsb() == provider.leastSignificantBits();
    }

    /** The event descriptor. */
    public EventDescriptor descriptor() {
        return new EventDescriptor(raw.id(), raw.version(), raw.channel(), raw.level(), raw.opcode(), raw.task(), raw.keyword());
    }

    public int eventId() {
        return raw.id();
    }

    public int version() {
        return raw.version();
    }

    public int channel() {
        return raw.channel();
    }

    public int level() {
        return raw.level();
    }

    public int opcode() {
        return raw.opcode();
    }

    public int task() {
        return raw.task();
    }

    public long keyword() {
        return raw.keyword();
    }

    /** Process id (-1 when the header has none). */
    public int processId() {
        return raw.processId();
    }

    /** Thread id (-1 when the header has none). */
    public int threadId() {
        return raw.threadId();
    }

    /** The processor that logged the record. */
    public int processorIndex() {
        return raw.processorIndex();
    }

    /** 4 or 8: pointer size of the logging process. */
    public int pointerSize() {
        return raw.pointerSize();
    }

    /**
     * The timestamp in the trace's own clock (QPC ticks, FILETIME or CPU cycles, per the session's clock type). A
     * live backend that only reports FILETIME (not the simulated one) gives the FILETIME here.
     */
    public long timestampRaw() {
        EtlRecordView v = fileView;
        return v != null ? v.timestamp() : rawTimestamp;
    }

    /** The timestamp as FILETIME (100 ns ticks since 1601-01-01 UTC). */
    public long fileTime() {
        EtlRecordView v = fileView;
        return v != null ? v.timestampFileTime() : fileTime;
    }

    /** The timestamp. */
    public Instant timestamp() {
        return TimestampConverter.toInstant(fileTime());
    }

    /**
     * The timestamp to the nanosecond the trace's clock resolves (a file record's QPC or cycle count converted
     * exactly, rounded down; otherwise {@link #timestamp()}), as {@code etw dump} shows it.
     */
    public Instant exactTimestamp() {
        EtlRecordView v = fileView;
        return v != null ? v.timestampInstant() : exact != null ? exact : timestamp();
    }

    /** {@code EVENT_HEADER_FLAG_*} (classic and kernel records: CLASSIC_HEADER; WPP: TRACE_MESSAGE). */
    public int headerFlags() {
        return raw.flags();
    }

    /** {@code EVENT_HEADER_PROPERTY_*}. */
    public int eventProperty() {
        return raw.eventProperty();
    }

    /** Kernel-mode CPU time of the thread (header units), 0 when absent. */
    public long kernelTime() {
        return Integer.toUnsignedLong(raw.kernelTime());
    }

    /** User-mode CPU time of the thread, 0 when absent. */
    public long userTime() {
        return Integer.toUnsignedLong(raw.userTime());
    }

    /** The activity id (GUID_NULL when none). */
    public Guid activityId() {
        return raw.activityId();
    }

    // ----------------------------------------------------------------------------- extended data

    /** Number of extended data items. */
    public int extendedDataCount() {
        return raw.extendedDataCount();
    }

    /** All extended data items, copied. */
    public List<ExtendedItem> extendedData() {
        int n = raw.extendedDataCount();
        List<ExtendedItem> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new ExtendedItem(raw.extendedDataType(i), bytes(raw.extendedData(i))));
        }
        return Collections.unmodifiableList(out);
    }

    /** Data of the first extended item of {@code type} (a read-only view, valid as long as this record), or null. */
    public ByteBuffer extendedDataOfType(int type) {
        return raw.extendedDataOfType(type);
    }

    /** The related activity id (RELATED_ACTIVITYID item), GUID_NULL when the event has none. */
    public Guid relatedActivityId() {
        ByteBuffer b = raw.extendedDataOfType(EXT_RELATED_ACTIVITYID);
        return b == null || b.remaining() < Guid.BYTES ? Guid.NULL : Guid.readFrom(b, b.position());
    }

    /** The user SID (SID item) as {@code S-1-5-...}. */
    public Optional<String> userSid() {
        ByteBuffer b = raw.extendedDataOfType(EXT_SID);
        return b == null ? Optional.empty() : Optional.ofNullable(sidToString(b));
    }

    /** The terminal-session id (TS_ID item). */
    public OptionalInt terminalSessionId() {
        ByteBuffer b = raw.extendedDataOfType(EXT_TS_ID);
        return b == null || b.remaining() < 4 ? OptionalInt.empty() : OptionalInt.of(b.getInt(b.position()));
    }

    /**
     * The stack (STACK_TRACE64 or STACK_TRACE32 item) as return addresses, innermost first; 32-bit addresses are
     * zero-extended. Empty when the event has none.
     */
    public long[] stackTrace() {
        ByteBuffer b = raw.extendedDataOfType(EXT_STACK_TRACE64);
        int width = 8;
        if (b == null) {
            b = raw.extendedDataOfType(EXT_STACK_TRACE32);
            width = 4;
        }
        if (b == null || b.remaining() < 8) {
            return new long[0];
        }
        int p = b.position() + 8;
        long[] out = new long[(b.limit() - p) / width];
        for (int i = 0; i < out.length; i++) {
            out[i] = width == 8 ? b.getLong(p + 8 * i) : Integer.toUnsignedLong(b.getInt(p + 4 * i));
        }
        return out;
    }

    /** The MatchId of the stack item (what ties a stack to its kernel/user halves), or empty. */
    public OptionalLong stackMatchId() {
        ByteBuffer b = raw.extendedDataOfType(EXT_STACK_TRACE64);
        if (b == null) {
            b = raw.extendedDataOfType(EXT_STACK_TRACE32);
        }
        return b == null || b.remaining() < 8 ? OptionalLong.empty() : OptionalLong.of(b.getLong(b.position()));
    }

    /** The TraceLogging event metadata blob (EVENT_SCHEMA_TL item), copied; null for other events. */
    public byte[] traceLoggingMetadata() {
        ByteBuffer b = raw.extendedDataOfType(EXT_EVENT_SCHEMA_TL);
        return b == null ? null : bytes(b);
    }

    /** Whether this is a TraceLogging event (it carries an EVENT_SCHEMA_TL item). */
    public boolean isTraceLogging() {
        return raw.extendedDataOfType(EXT_EVENT_SCHEMA_TL) != null;
    }

    /** The provider name from the PROV_TRAITS item (TraceLogging providers). */
    public Optional<String> providerTraitsName() {
        ByteBuffer b = raw.extendedDataOfType(EXT_PROV_TRAITS);
        if (b == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ProviderTraits.parse(b.duplicate().order(ByteOrder.LITTLE_ENDIAN)).name());
        } catch (TraceLoggingDecodeException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The process start key (PROCESS_START_KEY item). */
    public OptionalLong processStartKey() {
        ByteBuffer b = raw.extendedDataOfType(EXT_PROCESS_START_KEY);
        return b == null || b.remaining() < 8 ? OptionalLong.empty() : OptionalLong.of(b.getLong(b.position()));
    }

    // ------------------------------------------------------------------------------------ payload

    /** The user data: a read-only little-endian buffer (a view unless this record is a copy). */
    public ByteBuffer userData() {
        return raw.userData();
    }

    /** Length of the user data in bytes. */
    public int userDataLength() {
        return raw.userDataLength();
    }

    /** The user data, copied. */
    public byte[] userDataBytes() {
        return bytes(raw.userData());
    }

    // ------------------------------------------------------------------------------------ decoding

    /**
     * The event name: the TraceLogging name, or the decoder's ({@code Task/Opcode}, {@code Task}, manifest
     * name, kernel class name); {@code EventID(n)} (or {@code EventWriteString} for id 0) when nothing describes
     * the event.
     */
    public String eventName() {
        TraceLoggingSchema s = traceLoggingSchema();
        return s != null ? s.name() : copy ? decodedValue().eventName() : view().eventName();
    }

    /** The provider name: TraceLogging traits, manifest, kernel; the GUID text when unknown. */
    public String providerName() {
        if (raw.extendedDataOfType(EXT_PROV_TRAITS) != null) {
            Optional<String> n = providerTraitsName();
            if (n.isPresent()) {
                return n.get();
            }
        }
        return copy ? decodedValue().providerName() : view().providerName();
    }

    /**
     * The event decoded into a reused, allocation-lean view ({@link EventView}) and shown through the reader's
     * trace context (drive-letter paths, file names of file keys, the process), as {@code etw dump} writes it.
     * Decoded on first use per record; the same object for every record of a reader or stream, valid as long as
     * this record.
     */
    EventView view() {
        EventView v = eventView;
        if (copy) {
            // a copy shows the value it keeps (decoded and presented once), not a second presentation
            if (v == null) {
                v = EventView.forDecodedEvents().of(decodedValue());
                eventView = v;
            }
            return v;
        }
        if (v == null) {
            v = new EventView(decoding.decoder);
            eventView = v;
        }
        if (!viewDecoded) {
            v.decode(raw);
            decoding.present(raw, v);
            viewDecoded = true;
        }
        return v;
    }

    /**
     * The event decoded and shown through the trace context, as a value: what {@link #view()} shows (a view's
     * own decoded view, copied; a copy's own decoding, presented once). Computed on first use per record, then kept.
     */
    DecodedEvent decodedValue() {
        DecodedEvent d = decoded;
        if (d == null) {
            d = copy ? decoding.present(raw, decoding.decoder.decode(raw)) : view().copy();
            decoded = d;
        }
        return d;
    }

    /**
     * The process this event belongs to, as the trace's kernel process events describe it (Process Start and the
     * rundown's DCStart; kernel events without a process id of their own are attributed as TraceEvent attributes
     * them: by the payload's process id, a disk I/O's issuer, or the process of their thread),
     * or {@code null} when the trace does not describe it. Files ({@link TraceFile}, {@link EventStream#openFiles})
     * are read in two passes by default ({@link ReadSettings.TraceContext#TWO_PASSES}), so this is the process
     * {@code etw dump} shows; live sessions can only say what was described up to this event (one pass: an event
     * delivered before the event that describes its process has none); without a context it is null.
     */
    public ProcessInfo process() {
        return copy ? decodedValue().process() : view().process();
    }

    /** Where the schema that decoded this event came from ({@link SchemaSource#NONE}: raw data only). */
    public SchemaSource schemaSource() {
        return copy ? decodedValue().source() : view().source();
    }

    /**
     * The schema's message with the field values put in (TraceEvent's {@code FormattedMessage}; a manifest's
     * {@code message} string), or empty when the schema has none.
     */
    public Optional<String> message() {
        return Optional.ofNullable(decodedValue().message());
    }

    /**
     * What the decoder and the trace context say about this event, empty when nothing (unmodifiable): why an event
     * was not decoded, trailing bytes no field took, an NT path the trace does not map to a drive letter. These
     * are the {@code notes} of {@code etw dump --format jsonl}.
     */
    public List<String> notes() {
        return decodedValue().notes();
    }

    /** The decoded top-level fields in wire order, each with its name, types and value; empty when undecodable. */
    public List<EventField> getFields() {
        return decodedValue().fields();
    }

    /**
     * A field with its types, label (value-map name, flag names, drive-letter path) and value; {@code name} may be
     * a dotted path into structs ({@code "outer.inner"}).
     *
     * @throws IllegalArgumentException if there is no such field
     */
    public EventField getField(String name) {
        int i = inPlaceIndex(name);
        EventField f = i >= 0 ? eventView.field(i) : i == MISSING ? null : find(name);
        if (f == null) {
            throw new IllegalArgumentException("no field '" + name + "' in " + eventName());
        }
        return f;
    }

    /**
     * Whether a field exists; {@code name} may be a dotted path into structs ({@code "outer.inner"}).
     */
    public boolean hasField(String name) {
        int i = inPlaceIndex(name);
        return i == NOT_IN_PLACE ? find(name) != null : i >= 0;
    }

    /**
     * The value of a field (types as listed on {@link EventField}); {@code name} may be a dotted path.
     *
     * @throws IllegalArgumentException if there is no such field
     */
    public Object getValue(String name) {
        int i = inPlaceIndex(name);
        return i >= 0 ? eventView.getValue(i) : getField(name).value();
    }

    /** An integral field that fits an int. */
    public int getInt(String name) {
        int i = inPlaceIndex(name);
        if (i >= 0 && (eventView.holds(i, Integer.class) || eventView.holds(i, Long.class))) {
            long l = eventView.getLong(i);
            if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
                return (int) l;
            }
        }
        Object v = getValue(name);
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
            return l.intValue();
        }
        throw typeMismatch(name, v, "int");
    }

    /** An integral field (unsigned 64-bit values as their two's complement bits). */
    public long getLong(String name) {
        int i = inPlaceIndex(name);
        if (i >= 0 && (eventView.holds(i, Long.class) || eventView.holds(i, Integer.class))) {
            return eventView.getLong(i);
        }
        Object v = getValue(name);
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        throw typeMismatch(name, v, "long");
    }

    /** A numeric field as a double. */
    public double getDouble(String name) {
        int i = inPlaceIndex(name);
        if (i >= 0) {
            if (eventView.holds(i, Double.class)) {
                return eventView.getDouble(i);
            }
            if (eventView.holds(i, Long.class) || eventView.holds(i, Integer.class)) {
                return eventView.getLong(i); // Long.doubleValue() and Integer.doubleValue(): the same widening
            }
        }
        Object v = getValue(name);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw typeMismatch(name, v, "double");
    }

    /** A boolean field. */
    public boolean getBoolean(String name) {
        int i = inPlaceIndex(name);
        if (i >= 0 && eventView.holds(i, Boolean.class)) {
            return eventView.getBoolean(i);
        }
        Object v = getValue(name);
        if (v instanceof Boolean b) {
            return b;
        }
        throw typeMismatch(name, v, "boolean");
    }

    /** A string field (strings and SIDs). */
    public String getString(String name) {
        int i = inPlaceIndex(name);
        if (i >= 0 && eventView.holds(i, String.class)) {
            return eventView.getString(i);
        }
        Object v = getValue(name);
        if (v instanceof String s) {
            return s;
        }
        throw typeMismatch(name, v, "String");
    }

    /** A FILETIME / SYSTEMTIME field. */
    public Instant getInstant(String name) {
        Object v = getValue(name);
        if (v instanceof Instant i) {
            return i;
        }
        throw typeMismatch(name, v, "Instant");
    }

    /** A GUID field. */
    public Guid getGuid(String name) {
        Object v = getValue(name);
        if (v instanceof Guid g) {
            return g;
        }
        throw typeMismatch(name, v, "Guid");
    }

    private static IllegalArgumentException typeMismatch(String name, Object v, String wanted) {
        return new IllegalArgumentException("field '" + name + "' holds " + (v == null ? "null" : v.getClass().getSimpleName())
                + ", not " + wanted);
    }

    /** {@link #inPlaceIndex}: the reused view reads this record in place and has no top-level field so named. */
    private static final int MISSING = -1;
    /** {@link #inPlaceIndex}: the getters answer from the decoded value ({@link #find}). */
    private static final int NOT_IN_PLACE = -2;

    /**
     * Where the by-name getters of a view answer from without building the {@link DecodedEvent}: the index of
     * field {@code name} in the reused {@link #view()} when that view reads this record's fields in place
     * ({@link EventView#isInPlace()}: flat templates, nothing the trace context adds) and {@code name} is a
     * top-level name, {@link #MISSING} when such a view has no such field; {@link #NOT_IN_PLACE} for copies,
     * dotted paths into structs and events the view holds as a decoded value. Either way the answers are the
     * decoded value's: the view's field {@code i} is what {@link EventView#copy()} would make of it (a view's
     * first field of a name, as {@link #find} takes the first).
     */
    private int inPlaceIndex(String name) {
        if (copy || name.indexOf('.') >= 0) {
            return NOT_IN_PLACE;
        }
        EventView v = view();
        return v.isInPlace() ? v.indexOf(name) : NOT_IN_PLACE;
    }

    private EventField find(String path) {
        List<EventField> fields = getFields();
        EventField hit = null;
        int from = 0;
        while (true) {
            int dot = path.indexOf('.', from);
            String part = dot < 0 ? path.substring(from) : path.substring(from, dot);
            hit = null;
            for (EventField f : fields) {
                if (f.name().equals(part)) {
                    hit = f;
                    break;
                }
            }
            if (hit == null || dot < 0) {
                return hit;
            }
            if (!(hit.value() instanceof StructValue sv)) {
                return null;
            }
            fields = sv.fields();
            from = dot + 1;
        }
    }

    /** The parsed TraceLogging schema of this event (cached per metadata blob), or null. */
    TraceLoggingSchema traceLoggingSchema() {
        if (!tlLooked) {
            ByteBuffer b = raw.extendedDataOfType(EXT_EVENT_SCHEMA_TL);
            tlSchema = b == null ? null : decoding.schema(b);
            tlLooked = true;
        }
        return tlSchema;
    }

    // --------------------------------------------------------------------------------------- text

    /**
     * The record as {@code etw dump} prints it in text form, one line (without its line end):
     * {@code 2016-08-17T23:30:22.037926Z  pid 1234 (PerfView)  tid 5678  cpu 0  level 4  Provider/Event Name=value;
     * ...}, by {@link EventFormatter}'s text rule (labels for mapped values, integers signed or unsigned as the
     * schema says, hexadecimal types as {@code 0x...}); the process is {@link #process()}.
     */
    @Override
    public String toString() {
        return EventFormatterAccess.line(EventFormat.TEXT, raw, decodedValue(), process(), exactTimestamp());
    }

    /**
     * The record as one JSON object, exactly as {@code etw dump --format jsonl} writes it (one value rule for
     * every JSON form of an event: {@link EventFormatter}): {@code timestamp}, {@code provider} ({@code id},
     * {@code name}), {@code event} (descriptor and name), {@code pid}, {@code process} ({@link #process()}, when
     * the stream has described it), {@code tid}, {@code cpu}, {@code activityId}, {@code fields} (an object in
     * wire order; integers as their schema types say, unsigned 64-bit ones unsigned, hexadecimal types and
     * pointers as {@code "0x..."} strings, labels for mapped values), {@code undecoded} (hex) when bytes were
     * left over or nothing decoded the payload, and {@code notes}.
     */
    public String toJson() {
        return EventFormatterAccess.line(EventFormat.JSONL, raw, decodedValue(), process(), exactTimestamp());
    }

    // ------------------------------------------------------------------------------------ helpers

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }

    /** A binary SID ({@link PrimitiveReader#sid}) at the buffer's position; null when the bytes are not a SID. */
    static String sidToString(ByteBuffer b) {
        int p = b.position();
        if (b.remaining() < 8 || b.remaining() < PrimitiveReader.sidLength(b, p)) {
            return null;
        }
        return PrimitiveReader.sid(b, p);
    }
}
