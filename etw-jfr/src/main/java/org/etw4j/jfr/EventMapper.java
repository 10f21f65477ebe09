package org.etw4j.jfr;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.EventType;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;
import jdk.jfr.Unsigned;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventWriter;
import org.etw4j.tracelogging.InType;
import org.etw4j.tracelogging.OutType;
import org.etw4j.tracelogging.EventShapeCache;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * Turns JFR events into TraceLogging events: one {@link TraceLoggingEvent} per JFR event type, built from the
 * type's field descriptors the first time an event of that type arrives, then reused.
 *
 * <p>Thread-safe (the schema cache is concurrent; writes use the provider's per-thread writer). The mapping of
 * JFR value types to TraceLogging types is in the README section "JFR to ETW": the ETW event is named as the JFR
 * event; {@code startTime} (and any {@code @Timestamp} field) is a FILETIME; {@code @Timespan} fields are Int64
 * nanoseconds named with a {@code Ns} suffix ({@code duration} becomes {@code durationNs}); a thread is three
 * fields {@code <name>Id} (Java thread id, UInt64), {@code <name>OsId} (OS thread id, UInt32 shown as TID) and
 * {@code <name>Name}; classes, methods and class loaders are their names; {@code @Unsigned} integers use the
 * unsigned in-types; any other nested JFR object is written as one string {@code a=1, b=x}; the stack trace is a
 * string field {@code stackTrace} (one frame per line) only when the event's setting asks for it.
 */
final class EventMapper {

    /** Frames written per stack trace at most (JFR's own default stack depth is 64). */
    static final int MAX_FRAMES = 64;

    /** Most JFR event types mapped at once (a JVM has a few hundred; the bound only guards against a runaway). */
    static final int MAX_TYPES = 4096;

    /** Mappings by JFR event type id, in etw-api's run-time shape cache. */
    private final EventShapeCache<Long, Mapping> byType = new EventShapeCache<>(MAX_TYPES);
    private final JfrToEtwConfig config;

    EventMapper(JfrToEtwConfig config) {
        this.config = config;
    }

    /** Writes one JFR event; returns the Win32 status of the write (0 also when no session wants it). */
    int write(EtwProvider provider, RecordedEvent event) {
        Mapping m = mapping(event.getEventType());
        EventWriter w = provider.event(m.event);
        if (!w.isEnabled()) {
            return 0;
        }
        for (FieldWriter f : m.fields) {
            f.write(w, event);
        }
        return w.write();
    }

    /** The TraceLogging definition used for a JFR event type (built on first use). */
    TraceLoggingEvent definition(EventType type) {
        return mapping(type).event;
    }

    private Mapping mapping(EventType type) {
        return byType.get(type.getId(), id -> build(type));
    }

    private Mapping build(EventType type) {
        JfrEventSetting setting = config.event(type.getName());
        Category category = setting == null ? Category.OTHER : setting.category();
        boolean stacks = setting != null && setting.stackTrace();
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder(type.getName())
                .level(category.level()).keyword(category.keyword());
        List<FieldWriter> writers = new ArrayList<>();
        int declared = 0;
        for (ValueDescriptor vd : type.getFields()) {
            int before = writers.size();
            int need = fieldCount(vd, stacks);
            if (need == 0 || declared + need > TraceLoggingEvent.MAX_FIELDS) {
                continue; // a JFR event with more than 128 fields loses the rest (none of the jdk.* ones has)
            }
            declare(b, writers, vd, stacks);
            declared += writers.size() - before;
        }
        return new Mapping(b.build(), writers.toArray(new FieldWriter[0]));
    }

    private static int fieldCount(ValueDescriptor vd, boolean stacks) {
        String t = vd.getTypeName();
        if (t.equals("jdk.types.StackTrace")) {
            return stacks ? 1 : 0;
        }
        return t.equals("java.lang.Thread") ? 3 : 1;
    }

    private static void declare(TraceLoggingEvent.Builder b, List<FieldWriter> out, ValueDescriptor vd, boolean stacks) {
        String name = vd.getName();
        boolean unsigned = vd.getAnnotation(Unsigned.class) != null;
        switch (vd.getTypeName()) {
            case "boolean":
                b.field(name, InType.BOOL32);
                out.add((w, e) -> w.bool32(e.getBoolean(name)));
                return;
            case "byte":
                b.field(name, unsigned ? InType.UINT8 : InType.INT8);
                out.add((w, e) -> w.int8(e.getByte(name)));
                return;
            case "char":
                b.field(name, InType.UINT16);
                out.add((w, e) -> w.uint16(e.getChar(name)));
                return;
            case "short":
                b.field(name, unsigned ? InType.UINT16 : InType.INT16);
                out.add((w, e) -> w.int16(e.getShort(name)));
                return;
            case "int":
                b.field(name, unsigned ? InType.UINT32 : InType.INT32);
                out.add((w, e) -> w.int32(e.getInt(name)));
                return;
            case "long":
                declareLong(b, out, vd, name, unsigned);
                return;
            case "float":
                b.field(name, InType.FLOAT);
                out.add((w, e) -> w.float32(e.getFloat(name)));
                return;
            case "double":
                b.field(name, InType.DOUBLE);
                out.add((w, e) -> w.float64(e.getDouble(name)));
                return;
            case "java.lang.String":
                b.field(name, InType.UNICODE_STRING);
                out.add((w, e) -> w.string(orEmpty(e.getString(name))));
                return;
            case "java.lang.Thread":
                b.field(name + "Id", InType.UINT64);
                b.field(name + "OsId", InType.UINT32, OutType.TID);
                b.field(name + "Name", InType.UNICODE_STRING);
                out.add((w, e) -> writeThread(w, e.getThread(name)));
                return;
            case "java.lang.Class":
                b.field(name, InType.UNICODE_STRING);
                out.add((w, e) -> w.string(className(e.getClass(name))));
                return;
            case "jdk.types.StackTrace":
                if (stacks) {
                    b.field(name, InType.UNICODE_STRING);
                    out.add((w, e) -> w.string(stackTrace(e.getStackTrace())));
                }
                return;
            default:
                b.field(name, InType.UNICODE_STRING);
                out.add((w, e) -> w.string(render(e.getValue(name))));
        }
    }

    private static void declareLong(TraceLoggingEvent.Builder b, List<FieldWriter> out, ValueDescriptor vd, String name,
                                    boolean unsigned) {
        if (vd.getAnnotation(Timestamp.class) != null) {
            b.field(name, InType.FILETIME);
            out.add((w, e) -> w.fileTime(instantOrEpoch(e.getInstant(name))));
        } else if (vd.getAnnotation(Timespan.class) != null) {
            b.field(name + "Ns", InType.INT64);
            out.add((w, e) -> w.int64(nanos(e.getDuration(name))));
        } else {
            b.field(name, unsigned ? InType.UINT64 : InType.INT64);
            out.add((w, e) -> w.int64(e.getLong(name)));
        }
    }

    private static void writeThread(EventWriter w, RecordedThread t) {
        if (t == null) {
            w.uint64(0).uint32(0).string("");
            return;
        }
        w.uint64(Math.max(0, t.getJavaThreadId())).uint32(t.getOSThreadId() & 0xFFFF_FFFFL);
        String n = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        w.string(orEmpty(n));
    }

    /** A Timespan in nanoseconds; JFR's "forever" (Long.MAX_VALUE ticks) saturates. */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static Instant instantOrEpoch(Instant t) {
        return t == null ? Instant.EPOCH : t;
    }

    static String className(RecordedClass c) {
        return c == null ? "" : orEmpty(c.getName());
    }

    static String methodName(RecordedMethod m) {
        if (m == null) {
            return "";
        }
        return className(m.getType()) + "." + m.getName() + m.getDescriptor();
    }

    /** One frame per line, {@code class.method(descriptor):line}; "..." when JFR truncated the stack. */
    static String stackTrace(RecordedStackTrace st) {
        if (st == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        List<RecordedFrame> frames = st.getFrames();
        int n = Math.min(frames.size(), MAX_FRAMES);
        for (int i = 0; i < n; i++) {
            RecordedFrame f = frames.get(i);
            if (i > 0) {
                sb.append('\n');
            }
            sb.append(methodName(f.getMethod()));
            if (f.getLineNumber() >= 0) {
                sb.append(':').append(f.getLineNumber());
            }
        }
        if (st.isTruncated() || frames.size() > n) {
            sb.append("\n...");
        }
        return sb.toString();
    }

    /** A nested JFR value as one string (methods, class loaders and one-field types by name). */
    static String render(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof RecordedMethod) {
            return methodName((RecordedMethod) v);
        }
        if (v instanceof RecordedClass) {
            return className((RecordedClass) v);
        }
        if (v instanceof RecordedClassLoader) {
            RecordedClassLoader l = (RecordedClassLoader) v;
            return l.getName() != null ? l.getName() : className(l.getType());
        }
        if (v instanceof RecordedThread) {
            RecordedThread t = (RecordedThread) v;
            return orEmpty(t.getJavaName() != null ? t.getJavaName() : t.getOSName());
        }
        if (v instanceof RecordedStackTrace) {
            return stackTrace((RecordedStackTrace) v);
        }
        if (v instanceof RecordedObject) {
            RecordedObject o = (RecordedObject) v;
            List<ValueDescriptor> fields = o.getFields();
            if (fields.size() == 1) {
                return render(o.getValue(fields.get(0).getName()));
            }
            StringBuilder sb = new StringBuilder();
            for (ValueDescriptor f : fields) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                sb.append(f.getName()).append('=').append(render(o.getValue(f.getName())));
            }
            return sb.toString();
        }
        return String.valueOf(v);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    @FunctionalInterface
    private interface FieldWriter {
        void write(EventWriter w, RecordedEvent e);
    }

    private static final class Mapping {
        final TraceLoggingEvent event;
        final FieldWriter[] fields;

        Mapping(TraceLoggingEvent event, FieldWriter[] fields) {
            this.event = event;
            this.fields = fields;
        }
    }
}
