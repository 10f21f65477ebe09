package org.etw4j.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.etw4j.consumer.etl.EtlLogfileHeader;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.etl.HeaderKind;

/**
 * The header facts of an .etl file as {@code etw summary} prints them (session, start and stop, recording machine,
 * buffers, clock, lost events, record counts, first and last record), one labelled line each.
 *
 * <p>Stateless utility; thread-safe. {@code etw summary} and the HTML report both print these lines, so the two
 * always agree.
 */
public final class TraceFacts {

    /**
     * One fact.
     *
     * <p>Immutable value; thread-safe.
     *
     * @param label what it is ({@code started}, {@code lost}...)
     * @param value its text
     */
    public record Fact(String label, String value) {
    }

    private TraceFacts() {
    }

    /** The facts of {@code s}, in {@code etw summary}'s order. */
    public static List<Fact> of(EtlSummary s) {
        EtlLogfileHeader h = s.header();
        List<Fact> t = new ArrayList<>();
        t.add(new Fact("session", h.sessionName().isEmpty() ? "(no name)" : h.sessionName()));
        t.add(new Fact("started", EtlSummary.formatFileTime(h.startTime())));
        t.add(new Fact("stopped", h.endTime() == 0 ? "(not recorded)" : EtlSummary.formatFileTime(h.endTime())));
        t.add(new Fact("recorded on", "Windows " + h.majorVersion() + "." + h.minorVersion() + " build "
                + h.osBuild() + ", " + h.numberOfProcessors() + " processors, pointer size " + h.pointerSize()));
        t.add(new Fact("buffers", h.buffersWritten() + " x " + h.bufferSize() + " bytes"
                + (h.compressedMode() ? ", compressed" : "") + ", log file mode 0x"
                + Long.toHexString(h.logFileMode())));
        t.add(new Fact("clock", clockName(h.clockTypeCode()) + " (" + h.clockTypeCode() + ")"));
        t.add(new Fact("lost", h.eventsLost() + " events, " + h.buffersLost() + " buffers"));
        t.add(new Fact("records", s.totalRecords() + kinds(s.recordsByHeaderKind())));
        if (s.totalRecords() > 0) {
            t.add(new Fact("first", EtlSummary.formatFileTime(s.firstFileTime())));
            t.add(new Fact("last", EtlSummary.formatFileTime(s.lastFileTime())));
        }
        if (s.warnings() > 0) {
            t.add(new Fact("warnings", s.warnings() + " malformed buffers or records skipped"));
        }
        return t;
    }

    /**
     * The name {@code etw summary} and the report have always shown for a ReservedFlags code (ntwmi.h
     * {@code EVENT_TRACE_CLOCK_*}; {@link EtlLogfileHeader#clockType()} names the session clocks 1-3 as etw-api's
     * {@code ClockType} does, QPC, SYSTEM_TIME, CPU_CYCLE): kept as it was, so that the summary's text does not change.
     */
    static String clockName(long code) {
        return code >= 0 && code < CLOCK_NAMES.length ? CLOCK_NAMES[(int) code] : "UNKNOWN";
    }

    private static final String[] CLOCK_NAMES = {"RAW", "PERFORMANCE_COUNTER", "SYSTEM_TIME", "CPU_CYCLE"};

    /** Counts per header kind as {@code " (CLASSIC 12, EVENT_HEADER 3)"}, or {@code ""} when there are none. */
    public static String kinds(Map<HeaderKind, Long> kinds) {
        StringJoiner j = new StringJoiner(", ", " (", ")");
        j.setEmptyValue("");
        for (Map.Entry<HeaderKind, Long> e : kinds.entrySet()) {
            j.add(e.getKey() + " " + e.getValue());
        }
        return j.toString();
    }
}
