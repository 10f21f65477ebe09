package org.etw4j.consumer.output;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.internal.Utf8Buffer;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.DecodedEventJson;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.decode.FieldText;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.consumer.internal.EventRecordAccess;
import org.etw4j.format.EventHeaderLayout;

/**
 * Writes decoded events in one of the {@link EventFormat}s: the one rendering of an event as text, JSON Lines or
 * CSV ({@code etw dump}, {@code etw live}, {@code EventRecord.toString/toJson}), and, through its static forms, of
 * an event's values wherever else they are shown ({@link #fieldsText(EventRecord)}, {@link #fieldText(EventField)},
 * {@link #json(EventRecord)}, {@link #fieldTexts}, {@link #fieldsJson(JsonWriter, List)}: etw-junit's listings, Spark's
 * columns, the timeline's arguments; the decoder's own value forms are etw4j-internal).
 *
 * <p>Not thread-safe: one writer thread; reusable for any number of events. It reads the record (header fields)
 * and its decoded form (read in place) during {@link #write} only. Each event is encoded as UTF-8 straight into one reused byte buffer (numbers, GUIDs and timestamps as
 * digits, no intermediate {@code String}s for them; names, labels and the part of a line that depends only on the
 * event's kind, from provider to keyword, encoded once and copied; texts read in place escaped per run of bytes),
 * which goes to the output in chunks of
 * {@value #CHUNK} bytes or more, and at {@link #flush()}. Given a {@link Writer}, the bytes are decoded back to
 * characters, each event at once (a console such as {@code etw live}'s) or in the same chunks. Nothing is closed.
 *
 * <p>Value rules, one per format:
 * <ul>
 * <li><b>Text</b>: {@code 2016-08-17T23:30:22.037926Z  pid 1234 (PerfView)  tid 5678  cpu 0  level 4  [opcode
 * Start  ][activity GUID  ][related GUID  ]Provider/Event Name=value; ...}: the opcode's name when the opcode is not
 * 0 (so that a Start and its Stop differ), the activity and related activity ids when set; a label (value-map name, flag names joined by {@code |}, drive-letter
 * path) instead of the value when there is one; integers signed or unsigned as their type says, hexadecimal types
 * and pointers as {@code 0x...}; booleans {@code True}/{@code False}; binary as lower-case hex; line breaks in
 * values as {@code \n}/{@code \r}; a failed field as {@code <error: why; raw=hex>}; undecoded trailing bytes as
 * {@code <undecoded>=hex;}. The process is {@code (name)}, or {@code (pid name)} when the event belongs to
 * another process than its header says.</li>
 * <li><b>JSON Lines</b>, one object per event:
 * <pre>{@code
 * {"timestamp":"2016-08-17T23:30:22.037926Z","provider":{"id":"...","name":"..."},
 *  "event":{"id":1,"version":0,"opcode":1,"opcodeName":"Start","level":4,"task":1,"keyword":"0x1","name":"..."},
 *  "pid":1234,"process":{"id":1234,"name":"PerfView",...},"tid":5678,"cpu":0,"activityId":null,
 *  "relatedActivityId":null,"fields":{"Name":value,...},"ntPaths":{"FileName":"\Device\HarddiskVolume2\..."}}
 * }</pre>
 * {@code process} (only when the trace's process events describe it) as {@link DecodedEventJson#process} writes
 * it; {@code opcodeName} as the text form names the opcode (always: {@code "Info"} for 0); {@code fields} as {@link DecodedEventJson#fieldsObject} writes them (integers as numbers, unsigned 64-bit
 * ones unsigned, hexadecimal types and pointers as {@code "0x..."}, a label instead of the number, a flag set as
 * {@code {"names":[...],"value":n}}, repeated names with {@code #2}...); {@code ntPaths}: the NT form of file
 * names shown in drive-letter form; {@code undecoded} (hex) and {@code notes} when there are any.</li>
 * <li><b>CSV</b>: a header row, then {@code timestamp,provider_id,provider,event,id,version,opcode,opcode_name,
 * level,task,keyword,pid,tid,cpu,activity_id,related_activity_id,process,process_image,fields} per event, the fields cell being the text form's
 * field list, trimmed; cells quoted by RFC 4180 when they hold a comma, quote or line break.</li>
 * </ul>
 */
public final class EventFormatter implements Flushable {
    static {
        // The forms that name the decoder's types, for etw4j's own callers only (see EventFormatterAccess).
        EventFormatterAccess.install(new EventFormatterAccess.Bridge() {
            @Override
            public void write(EventFormatter f, RawEventRecord r, EventView e, Instant time) {
                f.write(r, e, time);
            }

            @Override
            public void write(EventFormatter f, RawEventRecord r, DecodedEvent e, Instant time) {
                f.write(r, e, time);
            }

            @Override
            public String line(EventFormat format, RawEventRecord r, DecodedEvent e, ProcessInfo process,
                               Instant time) {
                return EventFormatter.line(format, r, e, process, time);
            }

            @Override
            public String text(DecodedEvent e) {
                return EventFormatter.text(e);
            }

            @Override
            public String json(DecodedEvent e) {
                return EventFormatter.json(e);
            }
        });
    }

    /** The buffer goes to a stream once it holds this many bytes (whole events only). */
    static final int CHUNK = 1 << 18;

    private static final byte[] EOL = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
    private static final String CSV_HEADER = "timestamp,provider_id,provider,event,id,version,opcode,opcode_name,"
            + "level,task,keyword,pid,tid,cpu,activity_id,related_activity_id,process,process_image,fields";

    /** The fixed parts of the forms, encoded once. */
    private static final byte[] T_PID = ascii("  pid ");
    private static final byte[] T_TID = ascii("  tid ");
    private static final byte[] T_CPU = ascii("  cpu ");
    private static final byte[] T_LEVEL = ascii("  level ");
    private static final byte[] T_GAP = ascii("  ");
    private static final byte[] T_ACTIVITY = ascii("activity ");
    private static final byte[] T_RELATED = ascii("related ");
    private static final byte[] T_OPCODE = ascii("opcode ");
    private static final byte[] J_OPCODE_NAME = ascii(",\"opcodeName\":");
    private static final byte[] J_RELATED = ascii(",\"relatedActivityId\":");
    private static final byte[] T_UNDECODED = ascii(" <undecoded>=");
    private static final byte[] J_TIMESTAMP = ascii("{\"timestamp\":\"");
    private static final byte[] J_PROVIDER = ascii("\",\"provider\":{\"id\":\"");
    private static final byte[] J_NAME = ascii("\",\"name\":");
    private static final byte[] J_EVENT = ascii("},\"event\":{\"id\":");
    private static final byte[] J_VERSION = ascii(",\"version\":");
    private static final byte[] J_OPCODE = ascii(",\"opcode\":");
    private static final byte[] J_LEVEL = ascii(",\"level\":");
    private static final byte[] J_TASK = ascii(",\"task\":");
    private static final byte[] J_KEYWORD = ascii(",\"keyword\":\"0x");
    private static final byte[] J_PID = ascii("},\"pid\":");
    private static final byte[] J_PROCESS = ascii(",\"process\":");
    private static final byte[] J_TID = ascii(",\"tid\":");
    private static final byte[] J_CPU = ascii(",\"cpu\":");
    private static final byte[] J_ACTIVITY = ascii(",\"activityId\":");
    private static final byte[] J_NULL = ascii("null");
    private static final byte[] J_FIELDS = ascii(",\"fields\":");
    private static final byte[] J_UNDECODED = ascii(",\"undecoded\":");
    private static final byte[] J_NOTES = ascii(",\"notes\":");
    private static final byte[] J_FLAG_NAMES = ascii("{\"names\":");
    private static final byte[] J_FLAG_VALUE = ascii(",\"value\":");
    private static final byte[] T_TRUE = ascii("True");
    private static final byte[] T_FALSE = ascii("False");
    private static final byte[] J_TRUE = ascii("true");
    private static final byte[] J_FALSE = ascii("false");
    private static final byte[] J_COMMA = ascii(",");
    private static final byte[] J_NT_PATHS = ascii(",\"ntPaths\":{");

    private final EventFormat format;
    private final OutputStream stream;
    private final Writer writer;
    /** Whether each event goes to {@link #writer} at once (else in chunks). */
    private final boolean eachEvent;
    /** The events not yet handed to the output (grows past its start capacity for a larger event). */
    private final Utf8Buffer buf;
    /** Writes JSON values (fields, process) into {@link #buf}; reset for each one. */
    private final JsonWriter json;
    /** How structs nested in field values are written: as field objects too. */
    private final Consumer<StructValue> structs = s -> fieldsObject(s.fields());
    private final IsoTimestamps timestamps = new IsoTimestamps();
    /** A field's text when it is not written as digits directly (labels, strings, GUIDs...). */
    private final StringBuilder scratch = new StringBuilder(256);
    /** Shows the {@link DecodedEvent}s given to {@code write(RawEventRecord, DecodedEvent, Instant)}. */
    private final EventView decodedEvents = EventView.forDecodedEvents();
    /** Pre-encoded names and values, per schema string or process record (identity). */
    private final EncodedCache<String> texts = EncodedCache.texts();
    /** Labels by the text rule (line breaks escaped). */
    private final EncodedCache<String> lineTexts = new EncodedCache<>(EventFormatter::escapedLine);
    private final EncodedCache<String> jsonStrings = EncodedCache.jsonStrings();
    private final EncodedCache<String> jsonNames = EncodedCache.jsonNames();
    /** {@code {"names":[...],"value":} of a flag set's label, as {@link #fieldsJson(EventView)} writes it. */
    private final EncodedCache<String> jsonFlagNames = new EncodedCache<>((b, label) -> {
        b.bytes(J_FLAG_NAMES);
        new JsonWriter(b).stringArray(List.of(label.split("\\|")));
        b.bytes(J_FLAG_VALUE);
    });
    /** A text as a CSV cell (quoted when it must be). */
    private final EncodedCache<String> csvCells = new EncodedCache<>((b, s) -> {
        b.append(s);
        csvQuote(b, 0, false);
    });
    /** The parts of the lines that depend on the event's kind only. */
    private final HeaderCache jsonHeaders = new HeaderCache(this::jsonHeader);
    private final HeaderCache csvHeaders = new HeaderCache(this::csvHeader);
    private final EncodedCache<ProcessInfo> processJson =
            new EncodedCache<>((b, p) -> DecodedEventJson.process(new JsonWriter(b), p));
    /** CSV cells are quoted by copying them here first. */
    private byte[] cell = new byte[256];
    private boolean headerDone;

    /** A formatter writing UTF-8 to {@code out} in large chunks (see {@link #flush()}). */
    public EventFormatter(EventFormat format, OutputStream out) {
        this.format = Objects.requireNonNull(format, "format");
        this.stream = Objects.requireNonNull(out, "out");
        this.writer = null;
        this.eachEvent = false;
        this.buf = new Utf8Buffer(CHUNK + (CHUNK >> 2));
        this.json = new JsonWriter(buf);
    }

    /** A formatter writing each event to {@code out} as it comes (characters: the bytes decoded back). */
    public EventFormatter(EventFormat format, Writer out) {
        this(format, out, true);
    }

    /**
     * A formatter writing characters to {@code out}: each event as it comes when {@code eachEvent} (a console
     * that shows events live), else in chunks of {@value #CHUNK} bytes and at {@link #flush()} (a bulk output).
     */
    public EventFormatter(EventFormat format, Writer out, boolean eachEvent) {
        this.format = Objects.requireNonNull(format, "format");
        this.stream = null;
        this.writer = Objects.requireNonNull(out, "out");
        this.eachEvent = eachEvent;
        this.buf = new Utf8Buffer(eachEvent ? 1024 : CHUNK + (CHUNK >> 2));
        this.json = new JsonWriter(buf);
    }

    /**
     * Writes one event as {@code etw dump} does: its header fields, its decoded form shown through the trace context
     * (valid during the call) and its exact timestamp. Clients format events through this, not through the record's
     * backend form.
     */
    public void write(EventRecord e) {
        write(EventRecordAccess.raw(e), EventRecordAccess.view(e), e.exactTimestamp());
    }

    /** Writes one event: {@code r} for the header fields, {@code e} its decoded form, {@code time} its timestamp. */
    private void write(RawEventRecord r, DecodedEvent e, Instant time) {
        write(r, decodedEvents.of(e), time);
    }

    /**
     * Writes one event: {@code r} for the header fields, {@code e} its decoded form (valid during the call),
     * {@code time} its timestamp.
     */
    private void write(RawEventRecord r, EventView e, Instant time) {
        if (format == EventFormat.CSV && !headerDone) {
            buf.append(CSV_HEADER).bytes(EOL);
            headerDone = true;
        }
        event(r, e, e.process(), time);
        buf.bytes(EOL);
        if (eachEvent || buf.size() >= CHUNK) {
            drain();
        }
    }

    private void drain() {
        if (writer != null) {
            buf.drainTo(writer);
        } else {
            buf.drainTo(stream);
        }
    }

    /**
     * One event as one line of {@code format}, without the line end (and without CSV's header row): the form
     * {@code EventRecord.toString()} (text) and {@code EventRecord.toJson()} (JSON Lines) give. {@code process}
     * is the process the event belongs to, or {@code null}.
     */
    private static String line(EventFormat format, RawEventRecord r, DecodedEvent e, ProcessInfo process,
                               Instant time) {
        EventFormatter f = new EventFormatter(format, Writer.nullWriter());
        f.event(r, f.decodedEvents.of(e), process, time);
        return f.buf.toString();
    }

    /**
     * The decoded event's line without the record's header, {@code Provider/Event Name=value; ...}: the text form
     * from the provider on (its field list by the text rule), for messages and listings that have no record.
     */
    private static String text(DecodedEvent e) {
        EventFormatter f = new EventFormatter(EventFormat.TEXT, Writer.nullWriter());
        EventView v = f.decodedEvents.of(e);
        f.buf.bytes(f.texts.get(v.providerName())).ascii('/').bytes(f.texts.get(v.eventName()));
        f.fieldsText(v);
        return f.buf.toString();
    }

    /**
     * The fields part of the text form of {@code e}: {@code " Name=value;"} per field, then the undecoded bytes if
     * any (empty when there are neither), read from the record's decoded view as {@link #write(EventRecord)} reads
     * it; how etw-junit's failure listings show an event's fields.
     */
    public static String fieldsText(EventRecord e) {
        EventFormatter f = new EventFormatter(EventFormat.TEXT, Writer.nullWriter());
        f.fieldsText(EventRecordAccess.view(e));
        return f.buf.toString();
    }

    /**
     * One field's value by the text rule, as the text form shows it after {@code Name=} (label when there is one,
     * failed fields as {@code <error: why; raw=hex>}), but with line breaks kept: Spark's {@code fields} map.
     */
    public static String fieldText(EventField f) {
        return FieldText.display(f);
    }

    /**
     * The decoded event as one typed JSON object, without the record's header: each field with its manifest type,
     * label and label kind, in order, structs nested (Spark's {@code fields_json}):
     * {@code {"provider":..,"providerId":..,"event":..,"task":..,"opcode":..,"id":..,"version":..,"source":..,
     * "payloadLength":..,["process":{..},]"fields":[{"name":..,"type":"win:UInt64","value":..[,"label":..,
     * "labelKind":..,"flags":[..]][,"error":..,"raw":"hex"]},..][,"undecoded":"hex"][,"message":..][,"notes":[..]]}}.
     * Values by the JSON rule of {@link EventFormat#JSONL}.
     */
    private static String json(DecodedEvent e) {
        StringBuilder sb = new StringBuilder(256);
        TypedEventJson.write(new JsonWriter(sb), e);
        return sb.toString();
    }

    /**
     * The typed JSON object of the record's decoded form shown through its reader's trace context (drive-letter
     * paths, derived file names, the process), as {@link #write(EventRecord)} shows it: Spark's {@code fields_json}.
     */
    public static String json(EventRecord e) {
        return json(EventRecordAccess.view(e).copy());
    }

    /**
     * Hands {@code each} the name and the {@link #fieldText text} of every top-level field of the record's decoded
     * form shown through its reader's trace context, in wire order (a repeated name is handed as often as it
     * occurs): Spark's {@code fields} map.
     */
    public static void fieldTexts(EventRecord e, java.util.function.BiConsumer<String, String> each) {
        for (EventField f : EventRecordAccess.view(e).copy().fields()) {
            each.accept(f.name(), fieldText(f));
        }
    }

    /**
     * Writes {@code fields} as the JSON Lines form's {@code "fields"} object (the timeline's event arguments): keyed
     * by name, a repeated name as {@code Name#2}, a label instead of the number, a flag set as
     * {@code {"names":[...],"value":n}}, a failed field as {@code {"error":...,"raw":"hex"}}.
     */
    public static void fieldsJson(JsonWriter w, List<EventField> fields) {
        DecodedEventJson.fieldsObject(w, fields);
    }

    private void event(RawEventRecord r, EventView e, ProcessInfo process, Instant time) {
        switch (format) {
            case TEXT -> text(r, e, process, time);
            case JSONL -> json(r, e, process, time);
            case CSV -> csv(r, e, process, time);
        }
    }

    /** Writes what is buffered to the output and flushes it. */
    @Override
    public void flush() {
        try {
            drain();
            if (writer != null) {
                writer.flush();
            } else {
                stream.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The opcode's name: the schema's ({@code Start}, {@code DCStop}, a manifest's own), else the name winmeta.xml
     * gives the predefined opcodes 0-9 and 240 (as TraceEvent shows them), else the number.
     */
    private void opcodeName(RawEventRecord r, EventView e) {
        String name = opcodeName(r.opcode(), e);
        if (name == null) {
            buf.decimal(r.opcode());
        } else {
            buf.bytes(texts.get(name));
        }
    }

    /** {@link #opcodeName(RawEventRecord, EventView)}'s name, or {@code null} when it is the number. */
    private static String opcodeName(int opcode, EventView e) {
        String name = e.opcodeName();
        return name == null || name.isEmpty() ? predefinedOpcode(opcode) : name;
    }

    /** winmeta.xml's predefined opcodes with TraceEvent's display names, or {@code null}. */
    private static String predefinedOpcode(int opcode) {
        return switch (opcode) {
            case 0 -> "Info";
            case 1 -> "Start";
            case 2 -> "Stop";
            case 3 -> "DCStart";
            case 4 -> "DCStop";
            case 5 -> "Extension";
            case 6 -> "Reply";
            case 7 -> "Resume";
            case 8 -> "Suspend";
            case 9 -> "Send";
            case 240 -> "Receive";
            default -> null;
        };
    }

    /**
     * The related activity id item of the record ({@code EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID}, MS Learn
     * "EVENT_HEADER_EXTENDED_DATA_ITEM"), positioned at the GUID, or {@code null} when there is none.
     */
    private static ByteBuffer relatedActivity(RawEventRecord r) {
        if (r.extendedDataCount() == 0) {
            return null;
        }
        ByteBuffer b = r.extendedDataOfType(EventHeaderLayout.EXT_RELATED_ACTIVITYID);
        return b == null || b.remaining() < Guid.BYTES ? null : b;
    }

    private static Utf8Buffer guid(Utf8Buffer out, ByteBuffer b) {
        return out.guid(Guid.windowsMsb(b, b.position()), Guid.windowsLsb(b, b.position()));
    }

    // ------------------------------------------------------------------------------------------------ text

    private void text(RawEventRecord r, EventView e, ProcessInfo p, Instant time) {
        timestamps.write(buf, time).bytes(T_PID).decimal(r.processId());
        if (p != null) {
            buf.ascii(' ').ascii('(');
            if (p.processId() != r.processId()) {
                buf.decimal(p.processId()).ascii(' ');
            }
            buf.bytes(texts.get(p.name())).ascii(')');
        }
        buf.bytes(T_TID).decimal(r.threadId())
                .bytes(T_CPU).decimal(r.processorIndex()).bytes(T_LEVEL).decimal(r.level()).bytes(T_GAP);
        if (r.opcode() != 0) {
            buf.bytes(T_OPCODE);
            opcodeName(r, e);
            buf.bytes(T_GAP);
        }
        if (r.activityIdMsb() != 0 || r.activityIdLsb() != 0) {
            buf.bytes(T_ACTIVITY).guid(r.activityIdMsb(), r.activityIdLsb()).bytes(T_GAP);
        }
        ByteBuffer related = relatedActivity(r);
        if (related != null) {
            guid(buf.bytes(T_RELATED), related).bytes(T_GAP);
        }
        buf.bytes(texts.get(e.providerName())).ascii('/').bytes(texts.get(e.eventName()));
        fieldsText(e);
    }

    /**
     * The text form's field list, {@code " Name=value;"} per field, then {@code " <undecoded>=hex;"} when bytes
     * were left over (also {@code text(DecodedEvent)}'s and {@link #fieldsText(EventRecord)}'s).
     */
    private void fieldsText(EventView e) {
        for (int i = 0, n = e.fieldCount(); i < n; i++) {
            buf.ascii(' ').bytes(texts.get(e.fieldName(i))).ascii('=');
            if (!integerText(e, i) && !inPlaceText(e, i) && !e.writeUtf8(i, buf, false)) {
                scratch.setLength(0);
                e.appendText(i, scratch);
                escapedLine(scratch);
            }
            buf.ascii(';');
        }
        if (e.undecodedLength() > 0) {
            buf.bytes(T_UNDECODED);
            e.writeUndecodedHex(buf);
            buf.ascii(';');
        }
    }

    /**
     * Writes field {@code i} as digits when it is a plain integer (no label, no error): what
     * {@code FieldText.appendValue} writes, without the characters in between; {@code false} when it is not.
     */
    private boolean integerText(EventView e, int i) {
        InType in = e.inType(i);
        OutType out = e.outType(i);
        if (in == InType.BOOLEAN || out == OutType.BOOLEAN) {
            return false;
        }
        if (e.isInPlace()) {
            if (e.isArray(i) || !e.isInteger(i) || e.label(i) != null) {
                return false;
            }
            textInteger(in, out, e.getLong(i));
            return true;
        }
        EventField f = e.field(i);
        if (f.error() != null || f.label() != null || f.labelKind() == EventField.LabelKind.UNMAPPED_NT_PATH
                || in == InType.BINARY) {
            return false;
        }
        Object v = f.value();
        if (!(v instanceof Integer) && !(v instanceof Long)) {
            return false;
        }
        long l = ((Number) v).longValue();
        if (isHex(in, out)) {
            buf.ascii('0').ascii('x').hex(v instanceof Integer ? l & 0xFFFF_FFFFL : l);
        } else if (v instanceof Long && in.isUnsigned()) {
            buf.unsignedDecimal(l);
        } else {
            buf.decimal(l);
        }
        return true;
    }

    /** A plain integer of types {@code in}/{@code out} by the text rule (not a boolean). */
    private void textInteger(InType in, OutType out, long v) {
        if (isHex(in, out)) {
            buf.ascii('0').ascii('x').hex(isInt(in) ? v & 0xFFFF_FFFFL : v);
        } else if (in.isUnsigned()) {
            buf.unsignedDecimal(v);
        } else {
            buf.decimal(v);
        }
    }

    /**
     * Writes in-place field {@code i} by the text rule when it has a label (what the view's {@code appendText}
     * gives then: a value map's name or a bit map's names, encoded once per label) or is an array of integers
     * ({@code [v,v,...]}, each as its scalar, booleans {@code True}/{@code False}); {@code false}, nothing
     * written, otherwise.
     */
    private boolean inPlaceText(EventView e, int i) {
        if (!e.isInPlace()) {
            return false;
        }
        String label = e.label(i);
        if (label != null) {
            buf.bytes(lineTexts.get(label));
            return true;
        }
        if (!e.isIntegerArray(i)) {
            return false;
        }
        InType in = e.inType(i);
        OutType out = e.outType(i);
        boolean bool = in == InType.BOOLEAN || out == OutType.BOOLEAN;
        buf.ascii('[');
        for (int j = 0, n = e.elementCount(i); j < n; j++) {
            if (j > 0) {
                buf.ascii(',');
            }
            long v = e.getLong(i, j);
            if (bool) {
                buf.bytes(v != 0 ? T_TRUE : T_FALSE);
            } else {
                textInteger(in, out, v);
            }
        }
        buf.ascii(']');
        return true;
    }

    /** {@code FieldText.isHex}: hexadecimal out types, pointers and the HEXINT in types. */
    private static boolean isHex(InType in, OutType out) {
        return out.isHex() || in == InType.POINTER || in == InType.HEXINT32 || in == InType.HEXINT64;
    }

    /** The in types whose values are 32-bit {@code int}s (their hexadecimal form is the low 32 bits). */
    private static boolean isInt(InType in) {
        return switch (in) {
            case INT8, UINT8, INT16, UINT16, INT32 -> true;
            default -> false;
        };
    }

    /** {@code s} with line feeds and carriage returns as {@code \n} and {@code \r}: an event stays on one line. */
    private void escapedLine(CharSequence s) {
        escapedLine(buf, s);
    }

    private static void escapedLine(Utf8Buffer buf, CharSequence s) {
        int n = s.length();
        int from = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                buf.append(s, from, i).ascii('\\').ascii(c == '\n' ? 'n' : 'r');
                from = i + 1;
            }
        }
        buf.append(s, from, n);
    }

    // ------------------------------------------------------------------------------------------------ JSON

    private void json(RawEventRecord r, EventView e, ProcessInfo p, Instant time) {
        buf.bytes(J_TIMESTAMP);
        timestamps.write(buf, time);
        buf.bytes(jsonHeaders.get(r, e)).bytes(J_PID).decimal(r.processId());
        if (p != null) {
            buf.bytes(J_PROCESS);
            buf.bytes(processJson.get(p));
        }
        buf.bytes(J_TID).decimal(r.threadId()).bytes(J_CPU).decimal(r.processorIndex());
        buf.bytes(J_ACTIVITY);
        if (r.activityIdMsb() == 0 && r.activityIdLsb() == 0) {
            buf.bytes(J_NULL);
        } else {
            buf.ascii('"').guid(r.activityIdMsb(), r.activityIdLsb()).ascii('"');
        }
        buf.bytes(J_RELATED);
        ByteBuffer related = relatedActivity(r);
        if (related == null) {
            buf.bytes(J_NULL);
        } else {
            guid(buf.ascii('"'), related).ascii('"');
        }
        buf.bytes(J_FIELDS);
        fieldsJson(e);
        ntPaths(e);
        if (e.undecodedLength() > 0) {
            buf.bytes(J_UNDECODED).ascii('"');
            e.writeUndecodedHex(buf);
            buf.ascii('"');
        }
        if (!e.notes().isEmpty()) {
            buf.bytes(J_NOTES);
            json.reset().stringArray(e.notes());
        }
        buf.ascii('}');
    }

    /**
     * The JSON Lines form from the provider to the event object's end (without its closing brace), which depends
     * on the event's kind only: written into {@code out} once per kind ({@link #jsonHeaders}).
     */
    private void jsonHeader(Utf8Buffer out, RawEventRecord r, EventView e) {
        out.bytes(J_PROVIDER).guid(e.providerId().mostSignificantBits(), e.providerId().leastSignificantBits())
                .bytes(J_NAME).jsonString(e.providerName());
        out.bytes(J_EVENT).decimal(r.id())
                .bytes(J_VERSION).decimal(r.version())
                .bytes(J_OPCODE).decimal(r.opcode())
                .bytes(J_OPCODE_NAME);
        String name = opcodeName(r.opcode(), e);
        if (name == null) {
            out.ascii('"').decimal(r.opcode()).ascii('"');
        } else {
            out.jsonString(name);
        }
        out.bytes(J_LEVEL).decimal(r.level())
                .bytes(J_TASK).decimal(r.task())
                .bytes(J_KEYWORD).hex(r.keyword())
                .bytes(J_NAME).jsonString(e.eventName());
    }

    /**
     * The fields as one object by {@link DecodedEventJson#fieldsObject}'s rules; for an event read in place,
     * written here with the names pre-encoded and integers, booleans and labels straight as bytes (the same bytes:
     * {@code EventFormatterTest}, {@code DumpGoldenTest}).
     */
    private void fieldsJson(EventView e) {
        if (!e.isInPlace()) {
            DecodedEventJson.fieldsObject(json.reset(), e, structs);
            return;
        }
        buf.ascii('{');
        int n = e.fieldCount();
        java.util.Map<String, Integer> seen = n > DUPLICATE_SCAN_LIMIT ? new java.util.HashMap<>() : null;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                buf.ascii(',');
            }
            String name = e.fieldName(i);
            int occurrence = seen != null ? seen.merge(name, 1, Integer::sum) : occurrence(e, i, name);
            if (occurrence > 1) {
                buf.jsonString(name + "#" + occurrence).ascii(':');
            } else {
                buf.bytes(jsonNames.get(name));
            }
            String label = e.label(i);
            if (label == null) {
                jsonValue(e, i);
            } else if (e.labelKind(i) == EventField.LabelKind.FLAGS) {
                buf.bytes(jsonFlagNames.get(label)); // the view's flag names are its label's, split at '|'
                jsonValue(e, i);
                buf.ascii('}');
            } else {
                buf.bytes(jsonStrings.get(label));
            }
        }
        buf.ascii('}');
    }

    /** Up to this many fields, repeated names are found by scanning the earlier ones (as DecodedEventJson). */
    private static final int DUPLICATE_SCAN_LIMIT = 32;

    /** 1 + how many of the view's fields before {@code index} are named {@code name}. */
    private static int occurrence(EventView view, int index, String name) {
        int n = 1;
        for (int j = 0; j < index; j++) {
            String other = view.fieldName(j);
            // the names' hashes are kept in the (schema's) strings: most pairs differ there, without equals
            if (other == name || other.hashCode() == name.hashCode() && other.equals(name)) {
                n++;
            }
        }
        return n;
    }

    /**
     * In-place field {@code i}'s value by {@link DecodedEventJson#writeValue}'s rule: scalar integers and booleans
     * straight as bytes, everything else through it.
     */
    private void jsonValue(EventView e, int i) {
        InType in = e.inType(i);
        OutType out = e.outType(i);
        if (!e.isArray(i) && e.isInteger(i)) {
            jsonInteger(in, out, e.getLong(i));
            return;
        }
        if (e.isIntegerArray(i)) { // as DecodedEventJson writes a list: [v,v,...], each by the scalar rule
            buf.ascii('[');
            for (int j = 0, n = e.elementCount(i); j < n; j++) {
                if (j > 0) {
                    buf.ascii(',');
                }
                jsonInteger(in, out, e.getLong(i, j));
            }
            buf.ascii(']');
            return;
        }
        if (!e.writeUtf8(i, buf, true)) {
            DecodedEventJson.writeValue(json.reset(), e, i, structs);
        }
    }

    /** An integer (or boolean) value of types {@code in}/{@code out} by {@link DecodedEventJson#writeValue}'s rule. */
    private void jsonInteger(InType in, OutType out, long v) {
        if (in == InType.BOOLEAN || out == OutType.BOOLEAN) {
            buf.bytes(v != 0 ? J_TRUE : J_FALSE);
        } else if (isHex(in, out)) {
            buf.ascii('"').ascii('0').ascii('x').hex(isInt(in) ? v & 0xFFFF_FFFFL : v).ascii('"');
        } else if (in.isUnsigned()) {
            buf.unsignedDecimal(v);
        } else {
            buf.decimal(v);
        }
    }

    /** Fields as one object by {@link DecodedEventJson#fieldsObject}'s rules (nested structs). */
    private void fieldsObject(List<EventField> fields) {
        DecodedEventJson.fieldsObject(json, fields, structs);
    }

    /** {@code ,"ntPaths":{...}}: the NT form of every file name the trace wrote so, when there is one. */
    private void ntPaths(EventView e) {
        boolean open = false;
        for (int i = 0, n = e.fieldCount(); i < n; i++) {
            String nt = e.ntPath(i);
            if (nt != null) {
                buf.bytes(open ? J_COMMA : J_NT_PATHS).jsonString(e.fieldName(i)).ascii(':').jsonString(nt);
                open = true;
            }
        }
        if (open) {
            buf.ascii('}');
        }
    }

    // ------------------------------------------------------------------------------------------------ CSV

    private void csv(RawEventRecord r, EventView e, ProcessInfo p, Instant time) {
        timestamps.write(buf, time).ascii(',');
        buf.bytes(csvHeaders.get(r, e))
                .decimal(r.processId()).ascii(',').decimal(r.threadId()).ascii(',').decimal(r.processorIndex())
                .ascii(',');
        if (r.activityIdMsb() != 0 || r.activityIdLsb() != 0) {
            buf.guid(r.activityIdMsb(), r.activityIdLsb());
        }
        buf.ascii(',');
        ByteBuffer related = relatedActivity(r);
        if (related != null) {
            guid(buf, related);
        }
        buf.ascii(',');
        if (p != null) {
            buf.bytes(csvCells.get(p.name()));
        }
        buf.ascii(',');
        if (p != null && p.imagePath() != null) {
            buf.bytes(csvCells.get(p.imagePath()));
        }
        buf.ascii(',');
        // The text form's field list ("Name=value; ..."), without the provider/event prefix, trimmed.
        int mark = buf.size();
        fieldsText(e);
        csvQuote(buf, mark, true);
    }

    /**
     * The CSV form from {@code provider_id} to {@code keyword} with the comma after it, which depends on the
     * event's kind only: written into {@code out} once per kind ({@link #csvHeaders}).
     */
    private void csvHeader(Utf8Buffer out, RawEventRecord r, EventView e) {
        out.guid(e.providerId().mostSignificantBits(), e.providerId().leastSignificantBits()).ascii(',');
        csvCell(out, e.providerName()).ascii(',');
        csvCell(out, e.eventName()).ascii(',');
        out.decimal(r.id()).ascii(',').decimal(r.version()).ascii(',').decimal(r.opcode()).ascii(',');
        String name = opcodeName(r.opcode(), e);
        if (name == null) {
            out.decimal(r.opcode());
        } else {
            csvCell(out, name);
        }
        out.ascii(',').decimal(r.level()).ascii(',').decimal(r.task()).ascii(',')
                .ascii('0').ascii('x').hex(r.keyword()).ascii(',');
    }

    private Utf8Buffer csvCell(Utf8Buffer out, String s) {
        int mark = out.size();
        out.append(s);
        csvQuote(out, mark, false);
        return out;
    }

    /**
     * Makes the bytes from {@code mark} on one RFC 4180 cell: trimmed of characters up to the space first when
     * asked, then quoted (quotes doubled) when they hold a comma, quote or line break.
     */
    private void csvQuote(Utf8Buffer buf, int mark, boolean trim) {
        byte[] b = buf.array();
        int from = mark;
        int to = buf.size();
        if (trim) {
            while (from < to && (b[from] & 0xFF) <= ' ') {
                from++;
            }
            while (to > from && (b[to - 1] & 0xFF) <= ' ') {
                to--;
            }
        }
        boolean quote = false;
        for (int i = from; i < to && !quote; i++) {
            byte c = b[i];
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote && from == mark) {
            buf.truncate(to);
            return;
        }
        int n = to - from;
        if (cell.length < n) {
            cell = new byte[Math.max(n, 2 * cell.length)];
        }
        System.arraycopy(b, from, cell, 0, n);
        buf.truncate(mark);
        if (!quote) {
            buf.bytes(cell, 0, n);
            return;
        }
        buf.ascii('"');
        int run = 0;
        for (int i = 0; i < n; i++) {
            if (cell[i] == '"') {
                buf.bytes(cell, run, i + 1).ascii('"');
                run = i + 1;
            }
        }
        buf.bytes(cell, run, n).ascii('"');
    }
}
