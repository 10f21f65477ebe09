package org.etw4j.consumer.internal.decode;

import static org.etw4j.format.PrimitiveReader.ANSI;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.internal.schema.SchemaQuery;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.PrimitiveReader;
import org.etw4j.RawEventRecord;

/**
 * A reusable, allocation-free view of one decoded event: the fields are read from the view's own copy of the
 * payload when asked (as JDK Flight Recorder's {@code RecordedObject} getters read its buffer), instead of being
 * built as {@link EventField} objects. Not thread-safe: one view per thread (or per cursor), reused for every event
 * that thread decodes; what it returns describes the event of the last {@link #decode} and is valid only until the
 * next one (strings and lists it returns are independent values, but its field indexes, names and texts refer to
 * the current event). Nothing to close. {@link #copy()} returns the event as an immutable {@link DecodedEvent},
 * equal to what {@link EventDecoder#decode} gives for the same record.
 *
 * <p>Reading does not allocate for the common shapes: integers, booleans, floating point, GUIDs, strings (UTF-16
 * without surrogates, ASCII/Latin-1 ANSI), binaries, and arrays of fixed-size values ({@link #elementCount},
 * {@link #getLong(int, int)}) in templates of data fields (manifests, kernel MOF classes, in-trace TDH metadata).
 * {@link #appendText} writes a field's text in place; {@link #getString} and {@link #getValue} allocate what they
 * return. Times ({@link InType#FILETIME}, {@link InType#SYSTEMTIME}) and SIDs are built when their text is asked
 * for.
 *
 * <p>Documented fallback: an event the view cannot read in place (a template with structs, types such as counted
 * strings or IP addresses, a field that fails to decode, kernel flags TraceEvent names by rule, TraceLogging,
 * events without schema, the decoder's own MetaData and manifest events, and events a {@link TraceContext}
 * gives drive-letter paths or derived fields) is decoded to a {@link DecodedEvent} internally, and every getter
 * answers from it; {@link #isInPlace()} says which. Structs are only reached that way: {@link #field(int)} gives
 * the {@link EventField} with its {@link StructValue}. Either way the getters give exactly what the
 * {@link DecodedEvent} of the same record holds (texts by the text rule of {@code org.etw4j.consumer.output.EventFormatter}).
 *
 * <p>Typical use, one view per reading thread:
 * <pre>{@code
 * EventView view = new EventView(decoder);
 * while (cursor.advance()) {
 *     view.decode(record.of(cursor.record()));
 *     for (int i = 0; i < view.fieldCount(); i++) {
 *         sb.append(view.fieldName(i)).append('=');
 *         view.appendText(i, sb);
 *     }
 * }
 * }</pre>
 */
public final class EventView {

    /** Value kinds of in-place fields (the class {@link EventField#value()} would have). */
    private static final int K_INT = 0;
    private static final int K_LONG = 1;
    private static final int K_DOUBLE = 2;
    /** {@link InType#BOOLEAN}: a 32-bit integer, non-zero is true. */
    private static final int K_BOOL = 3;
    /** An integer type with out type {@link OutType#BOOLEAN}. */
    private static final int K_INT_BOOL = 4;
    private static final int K_GUID = 5;
    private static final int K_INSTANT = 6;
    private static final int K_STRING = 7;
    private static final int K_BYTES = 8;

    /** String encodings of in-place text fields. */
    private static final int CS_UTF16 = 0;
    private static final int CS_ANSI = 1;
    private static final int CS_UTF8 = 2;
    /** Not a text: a (WBEM) SID at {@link #start}, or the empty "no SID". */
    private static final int CS_SID = 3;
    /** One {@link InType#UNICODE_CHAR} or {@link InType#ANSI_CHAR}. */
    private static final int CS_CHAR = 4;

    private final EventDecoder decoder;
    /** The decoder's schema lookup for this view's events: reused, so the chain allocates nothing per event. */
    private final SchemaQuery query = new SchemaQuery();

    // --- the event in fallback mode
    private DecodedEvent fallback;

    // --- the event in place: from its schema, or undecoded (no schema: no fields, the whole payload left over)
    private Guid providerId;
    private String providerName;
    private String eventName;
    private String taskName;
    private String opcodeName;
    private SchemaSource source;
    private String messageTemplate;
    private Map<String, ValueMap> maps;
    private int eventId;
    private int version;
    private int opcode;
    private List<String> notes = List.of();
    private ProcessInfo process;
    private int pointerSize;
    private byte[] bytes = new byte[1024];
    private ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    private int length;
    private int consumed;

    // --- per field, in place
    private int count;
    private DataSpec[] specs = new DataSpec[16];
    private int[] kind = new int[16];
    /** Byte offset of the value (the first element of an array; the text of a string). */
    private int[] start = new int[16];
    /** Arrays: element count; strings: text byte count; others: unused. */
    private int[] size = new int[16];
    /** -1 for scalars, else the element size of an array. */
    private int[] elementSize = new int[16];
    /** Strings: encoding ({@code CS_*}); bit 8 set: cut at the first NUL (fixed-length strings). */
    private int[] text = new int[16];
    /** The value or bit map naming a scalar integer or boolean, else null; its label is made when asked. */
    private ValueMap[] mapOf = new ValueMap[16];
    /** Labels made so far ({@link #labelOf}): valid where {@link #labelDone} is set. */
    private String[] labels = new String[16];
    private boolean[] labelDone = new boolean[16];

    private final StringBuilder scratch = new StringBuilder(64);

    /** A view decoding with {@code decoder} (shared: decoders are thread-safe). */
    public EventView(EventDecoder decoder) {
        this.decoder = Objects.requireNonNull(decoder, "decoder");
    }

    private EventView() {
        this.decoder = null;
    }

    /**
     * A view that only shows events decoded elsewhere ({@link #of(DecodedEvent)}); its {@link #decode} refuses.
     * For code that writes both kinds through views.
     */
    public static EventView forDecodedEvents() {
        return new EventView();
    }

    /**
     * Decodes {@code r} into this view, replacing the previous event. {@code r} is read during the call and,
     * while this event is current, by the header getters ({@link #providerId()} and the like come from the
     * schema; nothing here reads {@code r} later, so it may be reused as soon as this returns).
     *
     * @return this view
     */
    public EventView decode(RawEventRecord r) {
        if (decoder == null) {
            throw new IllegalStateException("this view only shows decoded events");
        }
        reset();
        DecodedEvent e = decoder.decode(r, this);
        if (e != null) {
            fallback = e;
        }
        return this;
    }

    /**
     * Makes this view show {@code e} (an event decoded elsewhere), in fallback mode: for code that writes events
     * through views only, such as an output format shared by views and decoded events.
     *
     * @return this view
     */
    public EventView of(DecodedEvent e) {
        reset();
        fallback = Objects.requireNonNull(e, "e");
        return this;
    }

    private void reset() {
        fallback = null;
        maps = null;
        count = 0;
        notes = List.of();
        process = null;
    }

    /** Whether the fields are read in place ({@code false}: from an internal {@link DecodedEvent}, see above). */
    public boolean isInPlace() {
        return fallback == null;
    }

    // ------------------------------------------------------------------------------------------ decoder's side

    /** The schema lookup {@link EventDecoder} reuses for this view's events. */
    SchemaQuery query() {
        return query;
    }

    /**
     * Called by {@link EventDecoder} for an event of schema {@code s}: reads the template's offsets over a copy of
     * {@code r}'s user data, or returns {@code false} (nothing kept) when the event needs the full decoder.
     */
    boolean readInPlace(EventSchema s, RawEventRecord r, Map<String, ValueMap> maps, int pointerSize,
                        List<String> notes) {
        if (KernelFieldNames.applies(s) || !flat(s.fields())) {
            return false;
        }
        int n = r.userDataLength();
        if (bytes.length < n) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
            buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        r.copyUserData(bytes, 0);
        this.length = n;
        this.pointerSize = pointerSize;
        this.maps = maps == null ? Map.of() : maps;
        this.count = 0;
        if (!walk(s.fields())) {
            count = 0;
            this.maps = null;
            return false;
        }
        this.providerId = s.providerId();
        this.providerName = s.providerName();
        this.eventName = s.eventName();
        this.taskName = s.taskName();
        this.opcodeName = s.opcodeName();
        this.source = s.source();
        this.messageTemplate = s.message();
        boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        this.eventId = classic ? 0 : r.id();
        this.version = r.version();
        this.opcode = r.opcode();
        this.notes = notes;
        return true;
    }

    /**
     * Called by {@link EventDecoder} for an event nothing describes: no fields, the whole payload undecoded, the
     * names and notes the decoder gives such events.
     */
    void readUndecoded(RawEventRecord r, Guid providerId, String providerName, String eventName, String taskName,
                       int eventId, List<String> notes) {
        int n = r.userDataLength();
        if (bytes.length < n) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
            buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        r.copyUserData(bytes, 0);
        this.length = n;
        this.consumed = 0;
        this.count = 0;
        this.maps = Map.of();
        this.providerId = providerId;
        this.providerName = providerName;
        this.eventName = eventName;
        this.taskName = taskName == null ? "" : taskName;
        this.opcodeName = "";
        this.source = SchemaSource.NONE;
        this.messageTemplate = null;
        this.eventId = eventId;
        this.version = r.version();
        this.opcode = r.opcode();
        this.notes = notes;
    }

    private static boolean flat(List<FieldSpec> fields) {
        for (int i = 0, n = fields.size(); i < n; i++) {
            if (!(fields.get(i) instanceof DataSpec d)) {
                return false;
            }
            switch (d.outType()) {
                case IPV4, IPV6, SOCKET_ADDRESS -> {
                    return false;
                }
                default -> {
                }
            }
        }
        return true;
    }

    /**
     * The template's fields over the data with {@link PayloadDecoder}'s rules, for the shapes read in place;
     * {@code false} as soon as one is not (or fails: the full decoder then reports it).
     */
    private boolean walk(List<FieldSpec> template) {
        int pos = 0;
        int limit = length;
        for (int t = 0, n = template.size(); t < n; t++) {
            DataSpec d = (DataSpec) template.get(t);
            if (d.optional() && pos >= limit) {
                continue;
            }
            InType type = d.inType();
            int k = kindOf(type, d.outType());
            if (k < 0) {
                return false;
            }
            int i = add(d, k);
            int fixed = type.fixedSize(pointerSize);
            if (d.count().present()) {
                // arrays of fixed-size numbers, booleans, GUIDs and FILETIMEs (texts and SYSTEMTIMEs: full decoder)
                if (fixed <= 0 || type == InType.SYSTEMTIME || k == K_STRING) {
                    return false;
                }
                long elements;
                if (d.count().isToEnd()) {
                    if ((limit - pos) % fixed != 0) {
                        return false;
                    }
                    elements = (limit - pos) / fixed;
                } else {
                    elements = resolve(d.count());
                    if (elements < 0 || elements > (limit - pos) / fixed) {
                        return false;
                    }
                }
                start[i] = pos;
                size[i] = (int) elements;
                elementSize[i] = fixed;
                pos += (int) elements * fixed;
                continue;
            }
            elementSize[i] = -1;
            start[i] = pos;
            if (fixed > 0) {
                if (fixed > limit - pos) {
                    return false;
                }
                if (type == InType.SYSTEMTIME && PrimitiveReader.systemTime(buffer, pos) == null) {
                    return false;
                }
                if (type == InType.UNICODE_CHAR || type == InType.ANSI_CHAR) {
                    text[i] = CS_CHAR;
                }
                pos += fixed;
                if (d.mapName() != null && k != K_DOUBLE && k != K_GUID && k != K_INSTANT && k != K_STRING) {
                    mapOf[i] = maps.get(d.mapName()); // labels only integers and booleans, as PayloadDecoder does
                }
                continue;
            }
            switch (type) {
                case UNICODE_STRING, ANSI_STRING -> {
                    int cs = type == InType.UNICODE_STRING ? CS_UTF16 : d.outType() == OutType.UTF8 ? CS_UTF8
                            : CS_ANSI;
                    int unit = cs == CS_UTF16 ? 2 : 1;
                    if (d.length().present()) {
                        long chars = resolve(d.length());
                        if (chars < 0 || chars > (limit - pos) / unit) {
                            return false;
                        }
                        long byteCount = chars * unit;
                        size[i] = cs == CS_UTF16 ? (int) byteCount & ~1 : (int) byteCount;
                        text[i] = cs | 0x100;
                        pos += (int) byteCount;
                    } else {
                        int nul = PrimitiveReader.nulIndex(buffer, pos, limit, unit);
                        if (nul < 0) {
                            return false;
                        }
                        size[i] = nul - pos;
                        text[i] = cs;
                        pos = nul + unit;
                    }
                }
                case BINARY -> {
                    long nb = d.length().present() ? resolve(d.length()) : limit - pos;
                    if (nb < 0 || nb > limit - pos) {
                        return false;
                    }
                    size[i] = (int) nb;
                    pos += (int) nb;
                }
                case SID -> {
                    int sid = sidSize(pos, limit);
                    if (sid < 0) {
                        return false;
                    }
                    text[i] = CS_SID;
                    size[i] = sid;
                    pos += sid;
                }
                case WBEM_SID -> {
                    if (limit - pos < 4) {
                        return false;
                    }
                    text[i] = CS_SID;
                    if (PrimitiveReader.i32(buffer, pos) == 0) {
                        start[i] = -1; // the kernel's 4-byte "no SID"
                        pos += 4;
                        break;
                    }
                    int token = 2 * pointerSize;
                    if (limit - pos < token + 8) {
                        return false;
                    }
                    int sid = sidSize(pos + token, limit);
                    if (sid < 0) {
                        return false;
                    }
                    start[i] = pos + token;
                    size[i] = sid;
                    pos += token + sid;
                }
                default -> {
                    return false;
                }
            }
        }
        consumed = pos;
        return true;
    }

    /** The size of the SID at {@code at}, or -1 when it does not fit before {@code limit}. */
    private int sidSize(int at, int limit) {
        if (limit - at < 8) {
            return -1;
        }
        int n = PrimitiveReader.sidLength(buffer, at);
        return limit - at < n ? -1 : n;
    }

    /** The kind of value a field of these types has, or -1 for the types only the full decoder reads. */
    private static int kindOf(InType t, OutType out) {
        int k = switch (t) {
            case INT8, UINT8, INT16, UINT16, INT32 -> K_INT;
            case UINT32, HEXINT32, INT64, UINT64, HEXINT64, POINTER, SIZET -> K_LONG;
            case FLOAT, DOUBLE -> K_DOUBLE;
            case BOOLEAN -> K_BOOL;
            case GUID -> K_GUID;
            case FILETIME, SYSTEMTIME -> K_INSTANT;
            case UNICODE_STRING, ANSI_STRING, SID, WBEM_SID, UNICODE_CHAR, ANSI_CHAR -> K_STRING;
            case BINARY -> K_BYTES;
            default -> -1;
        };
        return (k == K_INT || k == K_LONG) && out == OutType.BOOLEAN ? K_INT_BOOL : k;
    }

    private int add(DataSpec d, int k) {
        int i = count;
        if (i == specs.length) {
            int n = 2 * i;
            specs = java.util.Arrays.copyOf(specs, n);
            kind = java.util.Arrays.copyOf(kind, n);
            start = java.util.Arrays.copyOf(start, n);
            size = java.util.Arrays.copyOf(size, n);
            elementSize = java.util.Arrays.copyOf(elementSize, n);
            text = java.util.Arrays.copyOf(text, n);
            labels = java.util.Arrays.copyOf(labels, n);
            labelDone = java.util.Arrays.copyOf(labelDone, n);
            mapOf = java.util.Arrays.copyOf(mapOf, n);
        }
        specs[i] = d;
        kind[i] = k;
        text[i] = 0;
        size[i] = 0;
        labels[i] = null;
        labelDone[i] = false;
        mapOf[i] = null;
        count = i + 1;
        return i;
    }

    /**
     * A scalar's map label, as {@code PayloadDecoder} gives it (integers and booleans after the out type), made on
     * first request for this event.
     */
    private String labelOf(int i) {
        if (!labelDone[i]) {
            ValueMap m = mapOf[i];
            labels[i] = m == null ? null : m.bitMap() ? flagLabel(m, labelValue(i)) : m.label(labelValue(i));
            labelDone[i] = true;
        }
        return labels[i];
    }

    /** Slots of {@link #flagLabel}'s memo (a power of two). */
    private static final int FLAG_SLOTS = 64;
    private final ValueMap[] flagMaps = new ValueMap[FLAG_SLOTS];
    private final long[] flagValues = new long[FLAG_SLOTS];
    private final String[] flagLabels = new String[FLAG_SLOTS];

    /**
     * A bit map's label of {@code value}, remembered per map (identity) and value in a small direct-mapped memo: a
     * bit map's label is joined anew on each call, and the same flag sets recur event after event; the same
     * String for them also lets the formatter's identity-keyed caches of encoded labels hit.
     */
    private String flagLabel(ValueMap m, long value) {
        int slot = (System.identityHashCode(m) * 31 + Long.hashCode(value) * 0x9E3779B9) >>> 26; // 6 bits
        if (flagMaps[slot] == m && flagValues[slot] == value) {
            return flagLabels[slot];
        }
        String label = m.label(value);
        flagMaps[slot] = m;
        flagValues[slot] = value;
        flagLabels[slot] = label;
        return label;
    }

    private long labelValue(int i) {
        int k = kind[i];
        return k == K_BOOL || k == K_INT_BOOL ? (bool(i, start[i]) ? 1 : 0) : integer(i, start[i]);
    }

    /** Whether field {@code i} is a flag set (a bit map names it: bit maps always give a label). */
    private boolean isFlags(int i) {
        return mapOf[i] != null && mapOf[i].bitMap();
    }

    /**
     * A length or count naming an earlier field: its integer value ({@link EventField#asLong()}), -1 when it is
     * missing, not an integer or negative (the full decoder then reports the problem); literals as they are.
     */
    private long resolve(SizeRule rule) {
        if (!rule.isReference()) {
            return rule.literal();
        }
        String name = rule.fieldName();
        for (int j = count - 2; j >= 0; j--) { // count - 1 is the field being read
            if (specs[j].name().equals(name)) {
                if (elementSize[j] != -1) {
                    return -1;
                }
                return switch (kind[j]) {
                    case K_INT, K_LONG -> integer(j, start[j]);
                    case K_BOOL, K_INT_BOOL -> bool(j, start[j]) ? 1 : 0;
                    default -> -1;
                };
            }
        }
        return -1;
    }

    // --------------------------------------------------------------------------------------------- header

    /** Provider GUID (classic events: the event-class GUID). */
    public Guid providerId() {
        return fallback != null ? fallback.providerId() : providerId;
    }

    /** Provider name, or the GUID text when unknown. */
    public String providerName() {
        return fallback != null ? fallback.providerName() : providerName;
    }

    /** TraceEvent-style event name. */
    public String eventName() {
        return fallback != null ? fallback.eventName() : eventName;
    }

    /** Task display name ({@code ""} when none). */
    public String taskName() {
        return fallback != null ? fallback.taskName() : taskName;
    }

    /** Opcode display name ({@code ""} when none). */
    public String opcodeName() {
        return fallback != null ? fallback.opcodeName() : opcodeName;
    }

    /** Event id (classic events: 0). */
    public int eventId() {
        return fallback != null ? fallback.eventId() : eventId;
    }

    /** Event version. */
    public int version() {
        return fallback != null ? fallback.version() : version;
    }

    /** Opcode. */
    public int opcode() {
        return fallback != null ? fallback.opcode() : opcode;
    }

    /** The schema kind that decoded it. */
    public SchemaSource source() {
        return fallback != null ? fallback.source() : source;
    }

    /** Length of the user data. */
    public int payloadLength() {
        return fallback != null ? fallback.payloadLength() : length;
    }

    /** Event-level remarks, empty when none (unmodifiable). */
    public List<String> notes() {
        return fallback != null ? fallback.notes() : notes;
    }

    /** The process a {@link TraceContext} found for the event, else {@code null}. */
    public ProcessInfo process() {
        return fallback != null ? fallback.process() : process;
    }

    /** The schema's message formatted with the fields, or {@code null}; allocates (formats on each call). */
    public String message() {
        if (fallback != null) {
            return fallback.message();
        }
        return messageTemplate == null ? null : EventMessage.format(messageTemplate, fieldList());
    }

    /** Number of undecoded trailing bytes ({@link DecodedEvent#undecodedLength()}). */
    public int undecodedLength() {
        return fallback != null ? fallback.undecodedLength() : Math.max(0, length - consumed);
    }

    /** Appends the undecoded trailing bytes as lower-case hex (nothing when there are none). */
    public StringBuilder appendUndecodedHex(StringBuilder sb) {
        if (fallback != null) {
            return fallback.undecodedLength() == 0 ? sb : FieldText.appendHex(sb, fallback.undecoded());
        }
        for (int p = consumed; p < length; p++) {
            appendHexByte(sb, bytes[p]);
        }
        return sb;
    }

    // --------------------------------------------------------------------------------------------- fields

    /** Number of top-level fields. */
    public int fieldCount() {
        return fallback != null ? fallback.fields().size() : count;
    }

    /** The index of the first top-level field named {@code name}, or -1. */
    public int indexOf(String name) {
        int n = fieldCount();
        for (int i = 0; i < n; i++) {
            if (fieldName(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Field {@code i}'s name. */
    public String fieldName(int i) {
        return fallback != null ? fallback.fields().get(i).name() : spec(i).name();
    }

    /** Field {@code i}'s wire type. */
    public InType inType(int i) {
        return fallback != null ? fallback.fields().get(i).inType() : spec(i).inType();
    }

    /** Field {@code i}'s out type. */
    public OutType outType(int i) {
        return fallback != null ? fallback.fields().get(i).outType() : spec(i).outType();
    }

    /** Field {@code i}'s label ({@link EventField#label()}), or {@code null}. */
    public String label(int i) {
        return fallback != null ? fallback.fields().get(i).label() : labelOf(check(i));
    }

    /** What field {@code i}'s label is ({@link EventField#labelKind()}). */
    public EventField.LabelKind labelKind(int i) {
        if (fallback != null) {
            return fallback.fields().get(i).labelKind();
        }
        check(i);
        return isFlags(i) ? EventField.LabelKind.FLAGS
                : labelOf(i) == null ? EventField.LabelKind.NONE : EventField.LabelKind.NAME;
    }

    /** Why field {@code i} failed to decode, or {@code null} (fields read in place never fail). */
    public String error(int i) {
        return fallback != null ? fallback.fields().get(i).error() : checkedNull(i);
    }

    /** Field {@code i}'s raw bytes when it failed (a copy), else {@code null}. */
    public byte[] raw(int i) {
        return fallback != null ? fallback.fields().get(i).raw() : checkedNull(i);
    }

    private <T> T checkedNull(int i) {
        check(i);
        return null;
    }

    /**
     * The names of flag set {@code i}'s set bits ({@link EventField#flagNames()}; allocates the list), or an empty
     * list when it is not a flag set.
     */
    public List<String> flagNames(int i) {
        if (fallback != null) {
            return fallback.fields().get(i).flagNames();
        }
        return isFlags(check(i)) ? List.of(labelOf(i).split("\\|")) : List.of();
    }

    /** The NT path a file-name field holds ({@link EventField#ntPath()}), else {@code null}; may allocate. */
    public String ntPath(int i) {
        return fallback != null ? fallback.fields().get(i).ntPath() : checkedNull(i);
    }

    /** Whether field {@code i} is an array ({@link #elementCount} elements). */
    public boolean isArray(int i) {
        if (fallback != null) {
            return fallback.fields().get(i).value() instanceof List<?>;
        }
        return elementSize[check(i)] != -1;
    }

    /** Element count of array field {@code i} (the list's size in fallback mode); -1 when it is not an array. */
    public int elementCount(int i) {
        if (fallback != null) {
            return fallback.fields().get(i).value() instanceof List<?> l ? l.size() : -1;
        }
        return elementSize[check(i)] == -1 ? -1 : size[i];
    }

    /**
     * Whether field {@code i}'s value ({@link #getValue(int)}, {@link EventField#value()}) is an instance of
     * {@code type}, without making the value when the event is read in place: there an {@link InType#INT8} to
     * {@link InType#INT32} field holds an Integer, the other integers a Long, FLOAT and DOUBLE a Double, BOOLEAN
     * and integers of out type BOOLEAN a Boolean, texts and SIDs a String, BINARY a byte[], arrays a List. So that
     * a typed getter by name answers as the value's class says, without boxing it.
     */
    public boolean holds(int i, Class<?> type) {
        if (fallback != null) {
            return type.isInstance(fallback.fields().get(i).value());
        }
        if (elementSize[check(i)] != -1) {
            return type.isAssignableFrom(List.class);
        }
        Class<?> c = switch (kind[i]) {
            case K_INT -> Integer.class;
            case K_LONG -> Long.class;
            case K_DOUBLE -> Double.class;
            case K_BOOL, K_INT_BOOL -> Boolean.class;
            case K_GUID -> Guid.class;
            case K_INSTANT -> Instant.class;
            case K_BYTES -> byte[].class;
            default -> String.class;
        };
        return type.isAssignableFrom(c);
    }

    /** Whether scalar field {@code i} holds an integer (or a boolean), so that {@link #getLong(int)} answers. */
    public boolean isInteger(int i) {
        if (fallback != null) {
            EventField f = fallback.fields().get(i);
            return f.error() == null && f.asLong() != null;
        }
        int k = kind[check(i)];
        return elementSize[i] == -1 && (k == K_INT || k == K_LONG || k == K_BOOL || k == K_INT_BOOL);
    }

    /**
     * Whether field {@code i} is an array of integers (or booleans) read in place, so that
     * {@link #getLong(int, int)} answers for each element; {@code false} in fallback mode.
     */
    public boolean isIntegerArray(int i) {
        if (fallback != null) {
            return false;
        }
        int k = kind[check(i)];
        return elementSize[i] != -1 && (k == K_INT || k == K_LONG || k == K_BOOL || k == K_INT_BOOL);
    }

    /**
     * Scalar field {@code i} as a long ({@link EventField#asLong()}: integers sign- or zero-extended as their type
     * says, 64-bit ones with their raw bits, booleans 0/1).
     *
     * @throws IllegalStateException when the field is not an integer (see {@link #isInteger})
     */
    public long getLong(int i) {
        if (fallback != null) {
            EventField f = fallback.fields().get(i);
            Long v = f.error() == null ? f.asLong() : null;
            if (v == null) {
                throw notA("an integer", i);
            }
            return v;
        }
        if (!isInteger(i)) {
            throw notA("an integer", i);
        }
        return longAt(i, start[i]);
    }

    /** Element {@code j} of array field {@code i} as a long (as {@link #getLong(int)}). */
    public long getLong(int i, int j) {
        if (fallback != null) {
            Object o = element(i, j);
            if (o instanceof Integer v) {
                return v;
            }
            if (o instanceof Long v) {
                return v;
            }
            if (o instanceof Boolean b) {
                return b ? 1 : 0;
            }
            throw notA("an integer array", i);
        }
        int k = kind[checkElement(i, j)];
        if (k != K_INT && k != K_LONG && k != K_BOOL && k != K_INT_BOOL) {
            throw notA("an integer array", i);
        }
        return longAt(i, start[i] + j * elementSize[i]);
    }

    private long longAt(int i, int at) {
        int k = kind[i];
        return k == K_BOOL || k == K_INT_BOOL ? (bool(i, at) ? 1 : 0) : integer(i, at);
    }

    /** Scalar field {@code i} as a double (FLOAT, DOUBLE). */
    public double getDouble(int i) {
        if (fallback != null) {
            if (fallback.fields().get(i).value() instanceof Double d) {
                return d;
            }
            throw notA("a floating-point number", i);
        }
        if (kind[check(i)] != K_DOUBLE || elementSize[i] != -1) {
            throw notA("a floating-point number", i);
        }
        return doubleAt(i, start[i]);
    }

    /** Element {@code j} of array field {@code i} as a double. */
    public double getDouble(int i, int j) {
        if (fallback != null) {
            if (element(i, j) instanceof Double d) {
                return d;
            }
            throw notA("a floating-point array", i);
        }
        if (kind[checkElement(i, j)] != K_DOUBLE) {
            throw notA("a floating-point array", i);
        }
        return doubleAt(i, start[i] + j * elementSize[i]);
    }

    private double doubleAt(int i, int at) {
        return spec(i).inType() == InType.FLOAT ? (double) PrimitiveReader.f32(buffer, at)
                : PrimitiveReader.f64(buffer, at);
    }

    /** Scalar field {@code i} as a boolean (BOOLEAN, or an integer whose out type is BOOLEAN). */
    public boolean getBoolean(int i) {
        if (fallback != null) {
            if (fallback.fields().get(i).value() instanceof Boolean b) {
                return b;
            }
            throw notA("a boolean", i);
        }
        int k = kind[check(i)];
        if ((k != K_BOOL && k != K_INT_BOOL) || elementSize[i] != -1) {
            throw notA("a boolean", i);
        }
        return bool(i, start[i]);
    }

    /**
     * Field {@code i}'s value as a String when it is text (strings, SIDs, characters, and in fallback mode the
     * address texts), else {@code null}. Allocates the String.
     */
    public String getString(int i) {
        if (fallback != null) {
            return fallback.fields().get(i).value() instanceof String s ? s : null;
        }
        return kind[check(i)] == K_STRING && elementSize[i] == -1 ? string(i) : null;
    }

    /** Field {@code i}'s value as {@link EventField#value()} gives it (boxed; allocates). */
    public Object getValue(int i) {
        return fallback != null ? fallback.fields().get(i).value() : value(check(i));
    }

    /** Field {@code i} as an {@link EventField} (allocates in place; in fallback mode the decoded one). */
    public EventField field(int i) {
        return fallback != null ? fallback.fields().get(i) : materialize(check(i));
    }

    /**
     * Appends field {@code i}'s text as the text form shows it (the text rule of {@code EventFormatter}: the label when there is
     * one, else the value as {@link FieldText} renders it; errors as {@code <error: ...; raw=hex>}), without
     * escaping line breaks.
     */
    public StringBuilder appendText(int i, StringBuilder sb) {
        if (fallback != null) {
            return FieldText.appendDisplay(sb, fallback.fields().get(i));
        }
        check(i);
        if (isFlags(i)) {
            return mapOf[i].appendLabel(sb, labelValue(i)); // the names without a String
        }
        String l = labelOf(i);
        return l != null ? sb.append(l) : appendValue(i, sb);
    }

    /** {@link #appendText(int, StringBuilder)} to any {@link Appendable} (through a reused builder). */
    public <A extends Appendable> A appendText(int i, A out) {
        scratch.setLength(0);
        appendText(i, scratch);
        try {
            out.append(scratch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Appends field {@code i}'s value without its label, as {@link FieldText} renders values. */
    public StringBuilder appendValue(int i, StringBuilder sb) {
        if (fallback != null) {
            EventField f = fallback.fields().get(i);
            return FieldText.appendValue(sb, f, f.value());
        }
        check(i);
        if (elementSize[i] == -1) {
            return appendScalar(i, start[i], sb);
        }
        int open = sb.append('[').length();
        for (int j = 0, at = start[i]; j < size[i]; j++, at += elementSize[i]) {
            if (sb.length() > open) {
                sb.append(',');
            }
            appendScalar(i, at, sb);
        }
        return sb.append(']');
    }

    /** The event as a {@link DecodedEvent} that outlives this view (equal to the decoder's for the record). */
    public DecodedEvent copy() {
        if (fallback != null) {
            return fallback;
        }
        byte[] rest = java.util.Arrays.copyOfRange(bytes, Math.min(length, consumed), length);
        DecodedEvent e = DecodedEvent.owned(providerId, providerName, eventName, taskName, opcodeName, eventId,
                version, opcode, source, fieldList(), length, rest, notes, messageTemplate);
        return process == null ? e : e.presented(e.fields(), List.of(), process);
    }

    /** The internal event in fallback mode (no copy), else {@code null}. */
    DecodedEvent fallbackEvent() {
        return fallback;
    }

    /** Switches to fallback mode with {@code e} (what {@link TraceContext} presents for this event). */
    void presentAs(DecodedEvent e) {
        fallback = e;
    }

    /** The process {@link TraceContext} found, for an event read in place. */
    void presentProcess(ProcessInfo p) {
        process = p;
    }

    /** The event's name and field count; its text is {@code EventFormatter}'s (the view is not a rendering). */
    @Override
    public String toString() {
        return "EventView[" + providerName() + "/" + eventName() + ", " + fieldCount() + " fields]";
    }

    // ------------------------------------------------------------------------------------------- JSON support

    /**
     * Writes in-place text field {@code i} straight from the payload as UTF-8 into {@code out}: a JSON string when
     * {@code json}, else the text form's characters (line breaks as {@code \n}/{@code \r}). The same characters
     * {@link #appendText} gives; {@code false}, nothing written, when the field is not such a text (not read in
     * place, not a string, a label, a surrogate or non-ASCII 8-bit text: the caller then writes
     * {@link #appendText}'s characters).
     */
    public boolean writeUtf8(int i, org.etw4j.consumer.internal.Utf8Buffer out, boolean json) {
        if (fallback != null || kind[check(i)] != K_STRING || elementSize[i] != -1 || mapOf[i] != null) {
            return false;
        }
        int t = text[i];
        int cs = t & 0xFF;
        if (cs != CS_UTF16 && cs != CS_ANSI && cs != CS_UTF8) {
            return false;
        }
        boolean cut = (t & 0x100) != 0;
        int at = start[i];
        int end = at + size[i];
        int mark = out.size();
        if (json) {
            out.ascii('"');
        }
        if (cs == CS_UTF16) {
            if (!out.utf16Text(bytes, at, end, cut, json)) {
                out.truncate(mark);
                return false;
            }
        } else {
            int stop = end;
            for (int p = at; p < end; p++) {
                byte b = bytes[p];
                if (b == 0 && cut) {
                    stop = p;
                    break;
                }
                if (b < 0) {
                    out.truncate(mark);
                    return false;
                }
            }
            out.asciiText(bytes, at, stop, json);
        }
        if (json) {
            out.ascii('"');
        }
        return true;
    }

    /** Writes the undecoded trailing bytes as lower-case hex into {@code out} ({@link #appendUndecodedHex}). */
    public void writeUndecodedHex(org.etw4j.consumer.internal.Utf8Buffer out) {
        if (fallback != null) {
            if (fallback.undecodedLength() > 0) {
                byte[] b = fallback.undecoded();
                out.hex(b, 0, b.length);
            }
            return;
        }
        if (consumed < length) {
            out.hex(bytes, consumed, length);
        }
    }

    /**
     * Writes in-place field {@code i}'s value (or element {@code j} of an array, {@code j >= 0}) with the JSON
     * rules of {@link DecodedEventJson#writeValue} (texts pass through the view's scratch builder).
     */
    void writeJson(org.etw4j.consumer.output.JsonWriter w, int i) {
        check(i);
        StringBuilder tmp = scratch;
        if (elementSize[i] != -1) {
            w.beginArray();
            for (int j = 0, at = start[i]; j < size[i]; j++, at += elementSize[i]) {
                writeJsonAt(w, i, at, tmp);
            }
            w.endArray();
            return;
        }
        writeJsonAt(w, i, start[i], tmp);
    }

    private void writeJsonAt(org.etw4j.consumer.output.JsonWriter w, int i, int at, StringBuilder tmp) {
        switch (kind[i]) {
            case K_INT, K_LONG -> {
                long v = integer(i, at);
                if (hex(i)) {
                    tmp.setLength(0);
                    w.value(appendScalar(i, at, tmp));
                } else if (kind[i] == K_LONG && spec(i).inType().isUnsigned()) {
                    w.unsignedValue(v);
                } else {
                    w.value(v);
                }
            }
            case K_DOUBLE -> w.value(doubleAt(i, at));
            case K_BOOL, K_INT_BOOL -> w.value(bool(i, at));
            default -> {
                tmp.setLength(0);
                w.value(appendScalar(i, at, tmp));
            }
        }
    }

    // ------------------------------------------------------------------------------------------- in place

    private DataSpec spec(int i) {
        return specs[check(i)];
    }

    private int check(int i) {
        Objects.checkIndex(i, count);
        return i;
    }

    private int checkElement(int i, int j) {
        check(i);
        if (elementSize[i] == -1) {
            throw notA("an array", i);
        }
        Objects.checkIndex(j, size[i]);
        return i;
    }

    private IllegalStateException notA(String what, int i) {
        return new IllegalStateException("field " + i + " (" + fieldName(i) + ") is not " + what);
    }

    private boolean hex(int i) {
        DataSpec d = specs[i];
        InType t = d.inType();
        return d.outType().isHex() || t == InType.POINTER || t == InType.HEXINT32 || t == InType.HEXINT64;
    }

    /** An integer value as {@code PayloadDecoder} reads it, after the PORT out type (network byte order). */
    private long integer(int i, int at) {
        long v = rawInteger(i, at);
        if (kind[i] == K_INT && specs[i].outType() == OutType.PORT && (v & ~0xFFFFL) == 0) {
            int p = (int) v;
            v = ((p & 0xFF) << 8) | (p >>> 8);
        }
        return v;
    }

    /** The integer at {@code at} as its in type reads it (sign- or zero-extended, pointers by pointer size). */
    private long rawInteger(int i, int at) {
        return switch (specs[i].inType()) {
            case INT8 -> buffer.get(at);
            case UINT8 -> PrimitiveReader.u8(buffer, at);
            case INT16 -> PrimitiveReader.i16(buffer, at);
            case UINT16 -> PrimitiveReader.u16(buffer, at);
            case INT32, BOOLEAN -> PrimitiveReader.i32(buffer, at);
            case UINT32, HEXINT32 -> PrimitiveReader.u32(buffer, at);
            case INT64, UINT64, HEXINT64 -> PrimitiveReader.i64(buffer, at);
            case POINTER, SIZET -> PrimitiveReader.pointer(buffer, at, pointerSize);
            default -> throw new IllegalStateException("not an integer: " + specs[i].inType());
        };
    }

    /** A boolean: BOOLEAN (a 32-bit BOOL), or an integer with out type BOOLEAN; non-zero is true. */
    private boolean bool(int i, int at) {
        return rawInteger(i, at) != 0;
    }

    /** One value's text ({@link FieldText#appendValue} of the value {@link #value} would give). */
    private StringBuilder appendScalar(int i, int at, StringBuilder sb) {
        switch (kind[i]) {
            case K_INT, K_LONG -> {
                long l = integer(i, at);
                if (hex(i)) {
                    return FieldText.appendHex(sb.append("0x"), kind[i] == K_INT ? l & 0xFFFF_FFFFL : l);
                }
                if (kind[i] == K_LONG && specs[i].inType().isUnsigned() && l < 0) {
                    return sb.append(Long.toUnsignedString(l));
                }
                return sb.append(l);
            }
            case K_DOUBLE -> {
                return sb.append(doubleAt(i, at));
            }
            case K_BOOL, K_INT_BOOL -> {
                return sb.append(bool(i, at) ? "True" : "False");
            }
            case K_GUID -> {
                return appendGuid(sb, Guid.windowsMsb(buffer, at), Guid.windowsLsb(buffer, at));
            }
            case K_INSTANT -> {
                return sb.append(instant(i, at));
            }
            case K_BYTES -> {
                for (int p = at, end = at + size[i]; p < end; p++) {
                    appendHexByte(sb, bytes[p]);
                }
                return sb;
            }
            default -> {
                return appendString(i, sb);
            }
        }
    }

    private Instant instant(int i, int at) {
        return specs[i].inType() == InType.FILETIME ? PrimitiveReader.fileTime(PrimitiveReader.i64(buffer, at))
                : PrimitiveReader.systemTime(buffer, at);
    }

    /** A text field's characters without a String when they need no decoder (else through {@link #string}). */
    private StringBuilder appendString(int i, StringBuilder sb) {
        int t = text[i];
        int cs = t & 0xFF;
        boolean cut = (t & 0x100) != 0;
        int at = start[i];
        int n = size[i];
        switch (cs) {
            case CS_UTF16 -> {
                int end = at + n;
                if (cut) {
                    for (int p = at; p < end; p += 2) {
                        if (bytes[p] == 0 && bytes[p + 1] == 0) {
                            end = p;
                            break;
                        }
                    }
                }
                for (int p = at; p < end; p += 2) {
                    if (Character.isSurrogate((char) ((bytes[p] & 0xFF) | (bytes[p + 1] & 0xFF) << 8))) {
                        return sb.append(string(i));
                    }
                }
                for (int p = at; p < end; p += 2) {
                    sb.append((char) ((bytes[p] & 0xFF) | (bytes[p + 1] & 0xFF) << 8));
                }
                return sb;
            }
            case CS_ANSI, CS_UTF8 -> {
                int end = at + n;
                if (cut) {
                    for (int p = at; p < end; p++) {
                        if (bytes[p] == 0) {
                            end = p;
                            break;
                        }
                    }
                }
                for (int p = at; p < end; p++) {
                    byte b = bytes[p];
                    // UTF-8: only ASCII is its own character; windows-1252: all but 0x80-0x9F are Latin-1
                    if (cs == CS_UTF8 ? b < 0 : (b & 0xE0) == 0x80 && ANSI != StandardCharsets.ISO_8859_1) {
                        return sb.append(string(i));
                    }
                }
                for (int p = at; p < end; p++) {
                    sb.append((char) (bytes[p] & 0xFF));
                }
                return sb;
            }
            case CS_CHAR -> {
                if (specs[i].inType() == InType.UNICODE_CHAR) {
                    return sb.append((char) PrimitiveReader.u16(buffer, at));
                }
                return sb.append(string(i));
            }
            default -> {
                return sb.append(string(i));
            }
        }
    }

    /** A text field as the String {@code PayloadDecoder} makes of it. */
    private String string(int i) {
        int t = text[i];
        int cs = t & 0xFF;
        int at = start[i];
        switch (cs) {
            case CS_SID -> {
                return at < 0 ? "" : PrimitiveReader.sid(buffer, at);
            }
            case CS_CHAR -> {
                return specs[i].inType() == InType.UNICODE_CHAR
                        ? String.valueOf((char) PrimitiveReader.u16(buffer, at))
                        : PrimitiveReader.string(buffer, at, 1, ANSI);
            }
            default -> {
                String s = PrimitiveReader.string(buffer, at, size[i], cs == CS_UTF16 ? StandardCharsets.UTF_16LE
                        : cs == CS_UTF8 ? StandardCharsets.UTF_8 : ANSI);
                if ((t & 0x100) != 0) { // fixed-length strings are cut at their first NUL
                    int nul = s.indexOf('\0');
                    return nul >= 0 ? s.substring(0, nul) : s;
                }
                return s;
            }
        }
    }

    /** The boxed value {@code PayloadDecoder} gives field {@code i}. */
    private Object value(int i) {
        if (elementSize[i] == -1) {
            return valueAt(i, start[i]);
        }
        List<Object> values = new ArrayList<>(size[i]);
        for (int j = 0, at = start[i]; j < size[i]; j++, at += elementSize[i]) {
            values.add(valueAt(i, at));
        }
        return Collections.unmodifiableList(values);
    }

    private Object valueAt(int i, int at) {
        return switch (kind[i]) {
            case K_INT -> (int) integer(i, at);
            case K_LONG -> integer(i, at);
            case K_DOUBLE -> doubleAt(i, at);
            case K_BOOL, K_INT_BOOL -> bool(i, at);
            case K_GUID -> Guid.readFrom(buffer, at);
            case K_INSTANT -> instant(i, at);
            case K_BYTES -> PrimitiveReader.bytes(buffer, at, size[i]);
            default -> string(i);
        };
    }

    private EventField materialize(int i) {
        DataSpec d = specs[i];
        Object v = value(i);
        if (elementSize[i] != -1) {
            return EventField.of(d.name(), d.inType(), d.outType(), v, null);
        }
        return EventField.of(d.name(), d.inType(), d.outType(), v, labelOf(i), labelKind(i));
    }

    private List<EventField> fieldList() {
        List<EventField> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(materialize(i));
        }
        return out;
    }

    private Object element(int i, int j) {
        if (fallback.fields().get(i).value() instanceof List<?> l) {
            return l.get(j);
        }
        throw notA("an array", i);
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private static void appendHexByte(StringBuilder sb, byte x) {
        sb.append(DIGITS[(x >> 4) & 0xF]).append(DIGITS[x & 0xF]);
    }

    /** {@link Guid#toString()}'s text (lower-case 8-4-4-4-12) without making a String. */
    static StringBuilder appendGuid(StringBuilder sb, long msb, long lsb) {
        hexDigits(sb, msb >>> 32, 8).append('-');
        hexDigits(sb, msb >>> 16, 4).append('-');
        hexDigits(sb, msb, 4).append('-');
        hexDigits(sb, lsb >>> 48, 4).append('-');
        return hexDigits(sb, lsb, 12);
    }

    private static StringBuilder hexDigits(StringBuilder sb, long v, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            sb.append(DIGITS[(int) (v >>> shift) & 0xF]);
        }
        return sb;
    }
}
