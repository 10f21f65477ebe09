package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.RawEventRecord;

/**
 * Everything an {@code EVENT_RECORD} says about one event, as a value: every header field, each extended data item
 * (type and bytes) and the user data. Two readers of one .etl file agree on a record when their facts are equal
 * (issue 21, item 13: etw4j's pure-Java reader against OpenTraceW/ProcessTrace, record by record).
 *
 * <p>Immutable value; thread-safe. Bytes are kept as hex so a failure message shows the difference.
 *
 * <p>Named exceptions to "compare everything", used by {@link #assertSameRecords}:
 * <ul>
 *   <li>order among records with the same timestamp: ETW does not define it across processor buffers (ProcessTrace
 *       merges the per-CPU streams by timestamp; ties are not specified on MS Learn), so each list must be in time
 *       order and records of equal timestamp are put in one order (every other fact) before they are compared;</li>
 *   <li>classic-header records ({@code EVENT_HEADER_FLAG_CLASSIC_HEADER}: the logfile header event, kernel
 *       records): ProcessTrace builds their EVENT_RECORD from a MOF header, and the logfile header's user data
 *       holds pointers ProcessTrace fixes up in memory (evntrace.h, TRACE_LOGFILE_HEADER: LoggerName and
 *       LogFileName are LPWSTR), so for them only provider, opcode, timestamp, process, thread and the user-data
 *       length are compared. Evidence that more would differ: none yet (no Windows run); this keeps the
 *       EVENT_HEADER records, which are what etw4j's users write, compared in full.</li>
 * </ul>
 */
record RecordFacts(boolean classic, int flags, int eventProperty, int threadId, int processId, long timestamp,
                   Guid provider, int id, int version, int channel, int level, int opcode, int task, long keyword,
                   int kernelTime, int userTime, Guid activityId, int processorIndex, int pointerSize,
                   List<String> extendedItems, String userData) {

    private static final HexFormat HEX = HexFormat.of();

    /** The facts of {@code r}, read during its callback (or while its cursor stands on it). */
    static RecordFacts of(RawEventRecord r) {
        boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        List<String> items = new ArrayList<>();
        for (int i = 0; i < r.extendedDataCount(); i++) {
            items.add(r.extendedDataType(i) + ":" + hex(r.extendedData(i)));
        }
        return new RecordFacts(classic, r.flags(), r.eventProperty(), r.threadId(), r.processId(), r.timestamp(),
                r.providerId(), r.id(), r.version(), r.channel(), r.level(), r.opcode(), r.task(), r.keyword(),
                r.kernelTime(), r.userTime(), r.activityId(), r.processorIndex(), r.pointerSize(), List.copyOf(items),
                hex(r.userData()));
    }

    private static String hex(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.get(b.position(), bytes);
        return HEX.formatHex(bytes);
    }

    /** What is compared for a classic-header record (see the class comment). */
    RecordFacts classicView() {
        return new RecordFacts(true, 0, 0, threadId, processId, timestamp, provider, 0, 0, 0, 0, opcode, 0, 0, 0, 0,
                Guid.NULL, 0, 0, List.of(), "length " + userData.length() / 2);
    }

    private RecordFacts compared() {
        return classic ? classicView() : this;
    }

    private static final Comparator<RecordFacts> ORDER = Comparator.comparingLong(RecordFacts::timestamp)
            .thenComparing(RecordFacts::toString);

    /** {@code records} in the comparison order (timestamp, then all facts), with the classic exception applied. */
    static List<RecordFacts> comparable(List<RecordFacts> records) {
        return records.stream().map(RecordFacts::compared).sorted(ORDER).toList();
    }

    /** Both readers deliver in time order (ProcessTrace for a file; etw4j's cursor by default): checked, not sorted. */
    static void assertInTimeOrder(List<RecordFacts> records, String what) {
        for (int i = 1; i < records.size(); i++) {
            if (records.get(i).timestamp() < records.get(i - 1).timestamp()) {
                throw new AssertionError(what + ": record " + i + " is earlier than the one before it: "
                        + records.get(i - 1) + " then " + records.get(i));
            }
        }
    }

    /**
     * Asserts that {@code actual} has exactly the records of {@code expected}, record by record, under the named
     * exceptions of the class comment; the message names the first record that differs and both versions.
     */
    static void assertSameRecords(List<RecordFacts> expected, List<RecordFacts> actual, String what) {
        assertInTimeOrder(expected, what + ", expected");
        assertInTimeOrder(actual, what + ", actual");
        List<RecordFacts> e = comparable(expected);
        List<RecordFacts> a = comparable(actual);
        int n = Math.min(e.size(), a.size());
        for (int i = 0; i < n; i++) {
            assertEquals(e.get(i), a.get(i), what + ": record " + i + " of " + e.size() + " differs");
        }
        assertEquals(e.size(), a.size(), what + ": record count; the first extra: "
                + (e.size() > n ? e.get(n) : a.size() > n ? a.get(n) : "-"));
    }
}
