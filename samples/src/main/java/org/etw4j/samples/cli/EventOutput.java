package org.etw4j.samples.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.decode.DecodedEvent;
import org.etw4j.consumer.decode.DecodedEventText;
import org.etw4j.consumer.decode.EventField;
import org.etw4j.consumer.decode.InType;
import org.etw4j.consumer.decode.StructValue;
import org.etw4j.spi.RawEventRecord;

/**
 * Writes decoded events in one of the {@link Format}s of {@code etw dump} and {@code etw live}.
 *
 * <p>Not thread-safe: one writer thread; reusable for any number of events. It reads the record (header fields)
 * and the decoded event during {@link #write} only.
 *
 * <p>JSON Lines form, one object per event:
 * <pre>{@code
 * {"timestamp":"2016-08-17T23:30:22.037926Z","provider":{"id":"...","name":"..."},
 *  "event":{"id":1,"version":0,"opcode":0,"level":4,"task":1,"keyword":"0x1","name":"..."},
 *  "pid":1234,"tid":5678,"cpu":0,"activityId":null,"fields":{"Name":value,...}}
 * }</pre>
 * Field values: integers as numbers (unsigned 64-bit ones unsigned), hexadecimal types and pointers as
 * {@code "0x..."} strings, a value-map or bit-map label instead of the number when there is one, floating point
 * as numbers ({@code "NaN"}/{@code "Infinity"} as strings), booleans, strings, GUIDs and times (ISO-8601 UTC) as
 * strings, binary as lower-case hex, arrays as arrays, structs as objects; a field that failed to decode is
 * {@code {"error":"...","raw":"hex"}}. A repeated field name gets a {@code #2}, {@code #3}... suffix. Events no
 * schema describes have {@code "fields":{}} and {@code "undecoded":"hex"}; decoding notes go to {@code "notes"}.
 */
final class EventOutput {
    /** Output formats. */
    enum Format {
        /** One line per event: time, process, thread, CPU, provider/event, fields. */
        TEXT,
        /** One JSON object per line. */
        JSONL,
        /** Comma-separated values with a header row (RFC 4180 quoting); the fields in one column. */
        CSV
    }

    private static final HexFormat HEX = HexFormat.of();
    private static final String CSV_HEADER =
            "timestamp,provider_id,provider,event,id,version,opcode,level,task,keyword,pid,tid,cpu,activity_id,fields";

    private final PrintWriter out;
    private final Format format;
    private final StringBuilder sb = new StringBuilder(512);
    private boolean headerDone;

    EventOutput(PrintWriter out, Format format) {
        this.out = out;
        this.format = format;
    }

    /** Writes one event: {@code r} for the header fields, {@code e} its decoded form, {@code time} its timestamp. */
    void write(RawEventRecord r, DecodedEvent e, Instant time) {
        sb.setLength(0);
        switch (format) {
            case TEXT -> text(r, e, time);
            case JSONL -> json(r, e, time);
            case CSV -> {
                if (!headerDone) {
                    out.println(CSV_HEADER);
                    headerDone = true;
                }
                csv(r, e, time);
            }
        }
        out.println(sb);
    }

    void flush() {
        out.flush();
    }

    private void text(RawEventRecord r, DecodedEvent e, Instant time) {
        sb.append(time).append("  pid ").append(r.processId()).append("  tid ").append(r.threadId())
                .append("  cpu ").append(r.processorIndex()).append("  level ").append(r.level()).append("  ");
        Guid act = r.activityId();
        if (!act.isNull()) {
            sb.append("activity ").append(act).append("  ");
        }
        DecodedEventText.appendTo(sb, e);
    }

    private void json(RawEventRecord r, DecodedEvent e, Instant time) {
        sb.append("{\"timestamp\":");
        quote(sb, time.toString());
        sb.append(",\"provider\":{\"id\":");
        quote(sb, e.providerId().toString());
        sb.append(",\"name\":");
        quote(sb, e.providerName());
        sb.append("},\"event\":{\"id\":").append(r.id())
                .append(",\"version\":").append(r.version())
                .append(",\"opcode\":").append(r.opcode())
                .append(",\"level\":").append(r.level())
                .append(",\"task\":").append(r.task())
                .append(",\"keyword\":");
        quote(sb, "0x" + Long.toHexString(r.keyword()));
        sb.append(",\"name\":");
        quote(sb, e.eventName());
        sb.append("},\"pid\":").append(r.processId())
                .append(",\"tid\":").append(r.threadId())
                .append(",\"cpu\":").append(r.processorIndex())
                .append(",\"activityId\":");
        Guid act = r.activityId();
        if (act.isNull()) {
            sb.append("null");
        } else {
            quote(sb, act.toString());
        }
        sb.append(",\"fields\":");
        fieldsObject(e.fields());
        if (e.undecodedLength() > 0) {
            sb.append(",\"undecoded\":");
            quote(sb, HEX.formatHex(e.undecoded()));
        }
        if (!e.notes().isEmpty()) {
            sb.append(",\"notes\":[");
            for (int i = 0; i < e.notes().size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                quote(sb, e.notes().get(i));
            }
            sb.append(']');
        }
        sb.append('}');
    }

    private void fieldsObject(List<EventField> fields) {
        sb.append('{');
        Map<String, Integer> seen = fields.size() > 1 ? new HashMap<>() : null;
        for (int i = 0; i < fields.size(); i++) {
            EventField f = fields.get(i);
            if (i > 0) {
                sb.append(',');
            }
            String name = f.name();
            if (seen != null) {
                int n = seen.merge(name, 1, Integer::sum);
                if (n > 1) {
                    name = name + "#" + n;
                }
            }
            quote(sb, name);
            sb.append(':');
            fieldValue(f);
        }
        sb.append('}');
    }

    private void fieldValue(EventField f) {
        if (f.error() != null) {
            sb.append("{\"error\":");
            quote(sb, f.error());
            sb.append(",\"raw\":");
            quote(sb, HEX.formatHex(f.raw()));
            sb.append('}');
        } else if (f.label() != null) {
            quote(sb, f.label());
        } else {
            value(f, f.value());
        }
    }

    private void value(EventField f, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Integer || v instanceof Long) {
            long l = ((Number) v).longValue();
            if (isHex(f)) {
                quote(sb, "0x" + Long.toHexString(v instanceof Integer ? l & 0xFFFF_FFFFL : l));
            } else if (v instanceof Long && f.inType().isUnsigned()) {
                sb.append(Long.toUnsignedString(l));
            } else {
                sb.append(l);
            }
        } else if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                quote(sb, d.toString());
            } else {
                sb.append(d.doubleValue());
            }
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof byte[] b) {
            quote(sb, HEX.formatHex(b));
        } else if (v instanceof StructValue s) {
            fieldsObject(s.fields());
        } else if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                value(f, list.get(i));
            }
            sb.append(']');
        } else {
            quote(sb, v.toString()); // String, Guid, Instant, anything else
        }
    }

    private static boolean isHex(EventField f) {
        return f.outType().isHex() || f.inType() == InType.POINTER || f.inType() == InType.HEXINT32
                || f.inType() == InType.HEXINT64;
    }

    private void csv(RawEventRecord r, DecodedEvent e, Instant time) {
        csvCell(time.toString()).append(',');
        csvCell(e.providerId().toString()).append(',');
        csvCell(e.providerName()).append(',');
        csvCell(e.eventName()).append(',');
        sb.append(r.id()).append(',').append(r.version()).append(',').append(r.opcode()).append(',')
                .append(r.level()).append(',').append(r.task()).append(',')
                .append("0x").append(Long.toHexString(r.keyword())).append(',')
                .append(r.processId()).append(',').append(r.threadId()).append(',').append(r.processorIndex()).append(',');
        Guid act = r.activityId();
        sb.append(act.isNull() ? "" : act.toString()).append(',');
        // The text form's field list ("Name=value; ..."), without the provider/event prefix.
        String line = DecodedEventText.format(e);
        String prefix = e.providerName() + "/" + e.eventName();
        csvCell(line.startsWith(prefix) ? line.substring(prefix.length()).trim() : line);
    }

    private StringBuilder csvCell(String s) {
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        if (!quote) {
            return sb.append(s);
        }
        return sb.append('"').append(s.replace("\"", "\"\"")).append('"');
    }

    /** Appends {@code s} as a JSON string literal (RFC 8259 escaping). */
    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
