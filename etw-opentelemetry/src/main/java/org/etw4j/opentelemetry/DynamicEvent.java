package org.etw4j.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.Value;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventWriter;
import org.etw4j.tracelogging.InType;
import org.etw4j.tracelogging.OutType;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * One TraceLogging event whose fields are known only at run time (span and log attributes): fields are collected,
 * the event's metadata comes from a shape cache keyed by the field list ({@link EtwTarget#schemaFor}), and the values are written in
 * one call. Not thread-safe, used once: a new instance per ETW event.
 *
 * <p>Attribute types map to TraceLogging as opentelemetry-cpp's {@code ETWProvider::writeTld} (etw_provider.h at
 * 08217e2f6f9b43f08365e2bcc563181af8400ff0) maps its property types: string -> UTF-8 string ({@code TypeUtf8String}:
 * ANSISTRING, OutType UTF8); boolean -> {@code TypeBool8} (UINT8, OutType BOOLEAN); long -> INT64; double ->
 * DOUBLE. The four array types, which cpp leaves out ("arrays are not supported"), become variable-length arrays
 * (u16 count, then the elements) of the same element types, booleans as BOOL32 as TraceLoggingProvider.h's
 * {@code TraceLoggingBoolArray} writes them; {@code VALUE} (complex values) -> its text ({@link Value#asString()}).
 * Attributes named like a standard field ({@link OtelEtwSchema}) are left out (the standard field wins, as in
 * opentelemetry-cpp where the standard field overwrites the attribute), and so are attributes past
 * {@link TraceLoggingEvent#MAX_FIELDS} fields; both are counted in {@link #droppedAttributes()}.
 */
final class DynamicEvent {
    /** The kinds of field this module writes. */
    enum Kind {
        UTF8, UINT32, INT64, DOUBLE, BOOL, UTF8_ARRAY, BOOL_ARRAY, INT64_ARRAY, DOUBLE_ARRAY
    }

    private record Field(String name, Kind kind, Object value) {
    }

    /**
     * The event tag opentelemetry-cpp's {@code ETWProvider::writeTld} (etw_provider.h at
     * 08217e2f6f9b43f08365e2bcc563181af8400ff0) puts on every event; value from the Windows SDK's
     * TraceLoggingProvider.h / MicrosoftTelemetry.h.
     */
    static final int MICROSOFT_EVENTTAG_NORMAL_PERSISTENCE = 0x01000000;

    private final String eventName;
    private final int level;
    private final int opcode;
    private final long keyword;
    private final List<Field> fields = new ArrayList<>();
    private int droppedAttributes;

    DynamicEvent(String eventName, int level, int opcode, long keyword) {
        this.eventName = eventName;
        this.level = level;
        this.opcode = opcode;
        this.keyword = keyword;
    }

    DynamicEvent utf8(String name, String value) {
        return add(name, Kind.UTF8, value == null ? "" : value);
    }

    DynamicEvent uint32(String name, long value) {
        return add(name, Kind.UINT32, value);
    }

    DynamicEvent int64(String name, long value) {
        return add(name, Kind.INT64, value);
    }

    private DynamicEvent add(String name, Kind kind, Object value) {
        fields.add(new Field(name, kind, value));
        return this;
    }

    /** Appends the attributes as fields (see the class comment for types, reserved names and the field limit). */
    DynamicEvent attributes(Attributes attributes) {
        attributes.forEach((key, value) -> {
            if (OtelEtwSchema.isReserved(key.getKey()) || fields.size() >= TraceLoggingEvent.MAX_FIELDS) {
                droppedAttributes++;
                return;
            }
            add(key.getKey(), kindOf(key), key.getType() == io.opentelemetry.api.common.AttributeType.VALUE
                    ? ((Value<?>) value).asString() : value);
        });
        return this;
    }

    private static Kind kindOf(AttributeKey<?> key) {
        switch (key.getType()) {
            case BOOLEAN: return Kind.BOOL;
            case LONG: return Kind.INT64;
            case DOUBLE: return Kind.DOUBLE;
            case STRING_ARRAY: return Kind.UTF8_ARRAY;
            case BOOLEAN_ARRAY: return Kind.BOOL_ARRAY;
            case LONG_ARRAY: return Kind.INT64_ARRAY;
            case DOUBLE_ARRAY: return Kind.DOUBLE_ARRAY;
            default: return Kind.UTF8; // STRING and VALUE (as text)
        }
    }

    /** Attributes left out (reserved name or field limit). */
    int droppedAttributes() {
        return droppedAttributes;
    }

    /** The cache key: event name, descriptor values and the field names and kinds in order. */
    String signature() {
        StringBuilder sb = new StringBuilder(64).append(eventName).append('\u0000').append(level).append('/')
                .append(opcode).append('/').append(keyword);
        for (Field f : fields) {
            sb.append('\u0000').append(f.name).append('\u0001').append(f.kind.ordinal());
        }
        return sb.toString();
    }

    /** Builds the TraceLogging event for this field list (called by the cache on a miss). */
    TraceLoggingEvent buildSchema() {
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder(eventName).level(level).opcode(opcode).keyword(keyword)
                .tags(MICROSOFT_EVENTTAG_NORMAL_PERSISTENCE);
        for (Field f : fields) {
            switch (f.kind) {
                case UTF8 -> b.field(f.name, InType.ANSI_STRING, OutType.UTF8);
                case UINT32 -> b.field(f.name, InType.UINT32);
                case INT64 -> b.field(f.name, InType.INT64);
                case DOUBLE -> b.field(f.name, InType.DOUBLE);
                case BOOL -> b.field(f.name, InType.UINT8, OutType.BOOLEAN);
                case UTF8_ARRAY -> b.array(f.name, InType.ANSI_STRING, OutType.UTF8);
                case BOOL_ARRAY -> b.array(f.name, InType.BOOL32);
                case INT64_ARRAY -> b.array(f.name, InType.INT64);
                case DOUBLE_ARRAY -> b.array(f.name, InType.DOUBLE);
            }
        }
        return b.build();
    }

    /**
     * Writes the event when some session wants its level and keyword. Returns the Win32 status (0 also when no
     * session listens); never throws. Attributes left out of a written event are added to
     * {@link EtwTarget#droppedAttributes()}, so none is lost without a count.
     *
     * @param activityId the activity id (null: the thread's)
     * @param relatedActivityId the related activity id (null: none)
     */
    int write(EtwTarget target, Guid activityId, Guid relatedActivityId) {
        EtwProvider provider = target.provider();
        if (!provider.isEnabled(level, keyword)) {
            return 0;
        }
        target.countDroppedAttributes(droppedAttributes);
        EventWriter w = provider.event(target.schemaFor(this)).activityId(activityId).relatedActivityId(relatedActivityId);
        for (Field f : fields) {
            writeValue(w, f);
        }
        return w.write();
    }

    @SuppressWarnings("unchecked")
    private static void writeValue(EventWriter w, Field f) {
        switch (f.kind) {
            case UTF8 -> w.utf8((String) f.value);
            case UINT32 -> w.uint32((Long) f.value);
            case INT64 -> w.int64((Long) f.value);
            case DOUBLE -> w.float64((Double) f.value);
            case BOOL -> w.uint8((Boolean) f.value ? 1 : 0);
            case UTF8_ARRAY -> {
                List<String> v = clip((List<String>) f.value);
                w.count(v.size());
                v.forEach(s -> w.utf8(s));
            }
            case BOOL_ARRAY -> {
                List<Boolean> v = clip((List<Boolean>) f.value);
                w.count(v.size());
                v.forEach(x -> w.bool32(x));
            }
            case INT64_ARRAY -> {
                List<Long> v = clip((List<Long>) f.value);
                w.count(v.size());
                v.forEach(x -> w.int64(x));
            }
            case DOUBLE_ARRAY -> {
                List<Double> v = clip((List<Double>) f.value);
                w.count(v.size());
                v.forEach(x -> w.float64(x));
            }
        }
    }

    /** TraceLogging array counts are u16: longer arrays keep their first 65535 elements. */
    private static <T> List<T> clip(List<T> values) {
        return values.size() <= 0xFFFF ? values : values.subList(0, 0xFFFF);
    }
}
