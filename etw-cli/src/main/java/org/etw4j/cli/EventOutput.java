package org.etw4j.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.etw4j.Guid;
import org.etw4j.consumer.decode.DecodedEvent;
import org.etw4j.consumer.decode.DecodedEventJson;
import org.etw4j.consumer.decode.EventField;
import org.etw4j.consumer.decode.EventView;
import org.etw4j.consumer.decode.FieldText;
import org.etw4j.consumer.decode.ProcessInfo;
import org.etw4j.consumer.decode.StructValue;
import org.etw4j.consumer.json.JsonWriter;
import org.etw4j.spi.RawEventRecord;

/**
 * Writes decoded events in one of the {@link Format}s of {@code etw dump} and {@code etw live}.
 *
 * <p>Not thread-safe: one writer thread; reusable for any number of events. It reads the record (header fields)
 * and the decoded event (an {@link EventView}, read in place, or a {@link DecodedEvent}) during {@link #write}
 * only. Both are written through the view's getters, so the two give the same bytes.
 *
 * <p>JSON Lines form, one object per event:
 * <pre>{@code
 * {"timestamp":"2016-08-17T23:30:22.037926Z","provider":{"id":"...","name":"..."},
 *  "event":{"id":1,"version":0,"opcode":0,"level":4,"task":1,"keyword":"0x1","name":"..."},
 *  "pid":1234,"process":{"id":1234,"name":"PerfView",...},"tid":5678,"cpu":0,"activityId":null,
 *  "fields":{"Name":value,...},"ntPaths":{"FileName":"\Device\HarddiskVolume2\..."}}
 * }</pre>
 * {@code process} (only when the trace's process events describe it) is the process the event belongs to, as
 * {@link DecodedEventJson#process} writes it. Field values: integers as numbers (unsigned 64-bit ones unsigned),
 * hexadecimal types and pointers as {@code "0x..."} strings, a value-map label instead of the number when there is
 * one, a flag set as {@code {"names":["Nocache","MountCompletion"],"value":131075}} (the text and CSV forms print
 * the same names joined by {@code |}), a file name in drive-letter form when the trace's volume mapping covers it
 * (the NT path as written is then in {@code ntPaths} under the field's name; an NT path the mapping does not cover
 * stays as written, is in {@code ntPaths} too, and a note says so), floating point
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
    private static final String CSV_HEADER = "timestamp,provider_id,provider,event,id,version,opcode,level,task,"
            + "keyword,pid,tid,cpu,activity_id,process,process_image,fields";

    private final PrintWriter out;
    private final Format format;
    private final StringBuilder sb = new StringBuilder(512);
    /** Writes the JSON Lines form into {@link #sb}, reset for each event. */
    private final JsonWriter json = new JsonWriter(sb);
    /** How structs nested in field values are written: as field objects too. */
    private final Consumer<StructValue> structs = s -> fieldsObject(s.fields());
    private boolean headerDone;
    /** Short texts (timestamp, keyword) made without a String. */
    private final StringBuilder scratch = new StringBuilder(40);
    /** The CSV fields cell before quoting. */
    private final StringBuilder cell = new StringBuilder(256);
    private final IsoInstants timestamps = new IsoInstants();
    private final Map<Guid, String> guidTexts = new HashMap<>();
    /** {@link #sb}'s characters, handed to the writer without making a String of them. */
    private char[] chars = new char[1024];
    /** Shows the {@link DecodedEvent}s given to {@link #write(RawEventRecord, DecodedEvent, Instant)}. */
    private final EventView decodedEvents = EventView.forDecodedEvents();

    EventOutput(PrintWriter out, Format format) {
        this.out = out;
        this.format = format;
    }

    /** Writes one event: {@code r} for the header fields, {@code e} its decoded form, {@code time} its timestamp. */
    void write(RawEventRecord r, DecodedEvent e, Instant time) {
        write(r, decodedEvents.of(e), time);
    }

    /**
     * Writes one event: {@code r} for the header fields, {@code e} its decoded form (valid during the call),
     * {@code time} its timestamp.
     */
    void write(RawEventRecord r, EventView e, Instant time) {
        sb.setLength(0);
        switch (format) {
            case TEXT -> text(r, e, time);
            case JSONL -> json(r, e, time);
            case CSV -> {
                if (!headerDone) {
                    out.write(CSV_HEADER);
                    out.write(System.lineSeparator());
                    headerDone = true;
                }
                csv(r, e, time);
            }
        }
        // write, not println: a PrintWriter with auto-flush (the launcher's) would flush at every line, one
        // system call per event; callers flush when they want the lines out (live: per event, dump: at the end)
        sb.append(System.lineSeparator());
        int n = sb.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        sb.getChars(0, n, chars, 0);
        out.write(chars, 0, n);
    }

    void flush() {
        out.flush();
    }

    private void text(RawEventRecord r, EventView e, Instant time) {
        timestamps.append(sb, time).append("  pid ").append(r.processId());
        processText(r, e.process());
        sb.append("  tid ").append(r.threadId())
                .append("  cpu ").append(r.processorIndex()).append("  level ").append(r.level()).append("  ");
        Guid act = r.activityId();
        if (!act.isNull()) {
            sb.append("activity ").append(act).append("  ");
        }
        e.appendTo(sb);
    }

    /** {@code " (name)"}, or {@code " (pid name)"} when the event belongs to another process than its header says. */
    private void processText(RawEventRecord r, ProcessInfo p) {
        if (p != null) {
            sb.append(" (");
            if (p.processId() != r.processId()) {
                sb.append(p.processId()).append(' ');
            }
            sb.append(p.name()).append(')');
        }
    }

    private void json(RawEventRecord r, EventView e, Instant time) {
        JsonWriter w = json.reset();
        scratch.setLength(0);
        w.beginObject().name("timestamp").value(timestamps.append(scratch, time));
        w.name("provider").beginObject()
                .member("id", guidText(e.providerId()))
                .member("name", e.providerName())
                .endObject();
        w.name("event").beginObject()
                .member("id", r.id())
                .member("version", r.version())
                .member("opcode", r.opcode())
                .member("level", r.level())
                .member("task", r.task())
                .name("keyword").value(hex(r.keyword()))
                .member("name", e.eventName())
                .endObject();
        w.member("pid", r.processId());
        if (e.process() != null) {
            w.name("process");
            DecodedEventJson.process(w, e.process());
        }
        w.member("tid", r.threadId()).member("cpu", r.processorIndex());
        Guid act = r.activityId();
        w.member("activityId", act.isNull() ? null : act.toString());
        w.name("fields");
        fieldsObject(e);
        ntPaths(e);
        if (e.undecodedLength() > 0) {
            scratch.setLength(0);
            w.name("undecoded").value(e.appendUndecodedHex(scratch));
        }
        if (!e.notes().isEmpty()) {
            w.name("notes").stringArray(e.notes());
        }
        w.endObject();
    }

    /** The event's fields as one object by {@link DecodedEventJson#fieldsObject}'s rules ({@code #2}...). */
    private void fieldsObject(EventView e) {
        DecodedEventJson.fieldsObject(json, e, structs);
    }

    /** Fields as one object by {@link DecodedEventJson#fieldsObject}'s rules ({@code #2} for repeated names...). */
    private void fieldsObject(List<EventField> fields) {
        DecodedEventJson.fieldsObject(json, fields, structs);
    }

    /** {@code "ntPaths":{...}}: the NT form of every file name the trace wrote so, when there is one. */
    private void ntPaths(EventView e) {
        boolean open = false;
        for (int i = 0, n = e.fieldCount(); i < n; i++) {
            String nt = e.ntPath(i);
            if (nt != null) {
                if (!open) {
                    json.name("ntPaths").beginObject();
                    open = true;
                }
                json.member(e.fieldName(i), nt);
            }
        }
        if (open) {
            json.endObject();
        }
    }

    private void csv(RawEventRecord r, EventView e, Instant time) {
        timestamps.append(sb, time).append(',');
        csvCell(guidText(e.providerId())).append(',');
        csvCell(e.providerName()).append(',');
        csvCell(e.eventName()).append(',');
        sb.append(r.id()).append(',').append(r.version()).append(',').append(r.opcode()).append(',')
                .append(r.level()).append(',').append(r.task()).append(',');
        FieldText.appendHex(sb.append("0x"), r.keyword()).append(',')
                .append(r.processId()).append(',').append(r.threadId()).append(',').append(r.processorIndex()).append(',');
        Guid act = r.activityId();
        sb.append(act.isNull() ? "" : act.toString()).append(',');
        ProcessInfo p = e.process();
        csvCell(p == null ? "" : p.name()).append(',');
        csvCell(p == null || p.imagePath() == null ? "" : p.imagePath()).append(',');
        // The text form's field list ("Name=value; ..."), without the provider/event prefix, trimmed.
        cell.setLength(0);
        e.appendFields(cell);
        int from = 0;
        int to = cell.length();
        while (from < to && cell.charAt(from) <= ' ') {
            from++;
        }
        while (to > from && cell.charAt(to - 1) <= ' ') {
            to--;
        }
        csvCell(cell, from, to);
    }

    private StringBuilder csvCell(String s) {
        return csvCell(s, 0, s.length());
    }

    /** Characters {@code from..to} of {@code s} as one RFC 4180 cell, quoted when they must be. */
    private StringBuilder csvCell(CharSequence s, int from, int to) {
        boolean quote = false;
        for (int i = from; i < to && !quote; i++) {
            char c = s.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            return sb.append(s, from, to);
        }
        sb.append('"');
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                sb.append('"');
            }
            sb.append(c);
        }
        return sb.append('"');
    }

    /** {@code "0x" + Long.toHexString(v)} in {@link #scratch}. */
    private StringBuilder hex(long v) {
        scratch.setLength(0);
        return FieldText.appendHex(scratch.append("0x"), v);
    }

    /**
     * A provider GUID's text: one provider writes thousands of events, so the text is made once (bounded; past
     * the bound it is made per call).
     */
    private String guidText(Guid id) {
        String t = guidTexts.get(id);
        if (t == null) {
            t = id.toString();
            if (guidTexts.size() < 4096) {
                guidTexts.put(id, t);
            }
        }
        return t;
    }
}
