package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.etw4j.Guid;
import org.etw4j.consumer.etl.EtlWriter;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.LogfileHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One rule for what an {@link EventRecord} says: the event as {@code etw dump} shows it (TraceEvent's and WPA's
 * presentation), whichever getter asks. Before, the record's getters, {@code toString()} and {@code toJson()}
 * answered from the undecorated decoding while {@link EventFormatter#write(EventRecord)} (dump) wrote the view shown
 * through the trace context, so the same record read two ways:
 * <ul>
 * <li>file names: {@code getFields()} and {@code toString()} gave the NT path ({@code \Device\HarddiskVolume2\...})
 * without its drive-letter label, and no {@code FileName} for FileIO events that carry only a {@code FileKey};</li>
 * <li>timestamps: {@code toString()}/{@code toJson()} printed the FILETIME (100 ns) where dump prints the trace's
 * clock converted to the nanosecond ({@link EventRecord#exactTimestamp()}); a copy lost the exact time.</li>
 * </ul>
 */
class EventRecordPresentationTest {

    /** The line {@code etw dump --format F} writes for {@code e}, without its line end. */
    private static String dumpLine(EventFormat format, EventRecord e) {
        StringWriter w = new StringWriter();
        EventFormatter f = new EventFormatter(format, w);
        f.write(e);
        f.flush();
        String s = w.toString();
        return s.substring(0, s.length() - System.lineSeparator().length());
    }

    /** What reading a file every way found: records, fields shown as presented paths, times finer than 100 ns. */
    private record Seen(long records, long paths, long finerThanFiletime) {
    }

    /** Reads {@code file} through {@link TraceFile} and compares every record's getters and forms with dump's. */
    private static Seen readEveryWay(Path file) throws Exception {
        List<String> mismatches = new ArrayList<>();
        long records = 0;
        long paths = 0;
        long finerThanFiletime = 0;
        try (TraceFile in = TraceFile.open(file)) {
            while (in.hasMoreEvents() && mismatches.size() < 6) {
                EventRecord e = in.readEvent();
                records++;
                String text = dumpLine(EventFormat.TEXT, e);
                String json = dumpLine(EventFormat.JSONL, e);
                if (!text.equals(e.toString())) {
                    mismatches.add("toString " + records + ":\n  dump " + text + "\n  rec  " + e);
                }
                if (!json.equals(e.toJson())) {
                    mismatches.add("toJson " + records + ":\n  dump " + json + "\n  rec  " + e.toJson());
                }
                List<String> viewNames = new ArrayList<>();
                for (int i = 0; i < e.view().fieldCount(); i++) {
                    viewNames.add(e.view().fieldName(i));
                }
                List<String> names = e.getFields().stream().map(EventField::name).toList();
                if (!names.equals(viewNames)) {
                    mismatches.add("fields " + records + ": " + names + " vs dump's " + viewNames);
                }
                if (json.contains(",\"notes\":[") == e.notes().isEmpty()) {
                    mismatches.add("notes " + records + ": " + e.notes() + " vs dump's " + json);
                }
                for (EventField f : e.getFields()) {
                    if (!e.getField(f.name()).equals(f) && e.getFields().stream().filter(
                            g -> g.name().equals(f.name())).count() == 1) {
                        mismatches.add("getField " + records + ": " + f.name());
                    }
                    if (f.labelKind() == EventField.LabelKind.DOS_PATH
                            || f.labelKind() == EventField.LabelKind.UNMAPPED_NT_PATH) {
                        paths++;
                    }
                }
                if (e.exactTimestamp().getNano() % 100 != 0) {
                    finerThanFiletime++;
                    if (!text.startsWith(e.timestamp().toString().substring(0, 20))
                            || !text.contains(String.format(".%09dZ", e.exactTimestamp().getNano()))) {
                        mismatches.add("time " + records + ": " + text);
                    }
                }
                EventRecord c = e.copy();
                if (!c.toString().equals(text) || !c.toJson().equals(json)
                        || !c.exactTimestamp().equals(e.exactTimestamp()) || !c.getFields().equals(e.getFields())
                        || !String.valueOf(c.process()).equals(String.valueOf(e.process()))) {
                    mismatches.add("copy " + records + ":\n  view " + text + "\n  copy " + c);
                }
            }
        }
        assertEquals(List.of(), mismatches);
        return new Seen(records, paths, finerThanFiletime);
    }

    /**
     * Kernel traces whose file names dump shows in drive-letter form (or says unmapped) and derives from file keys,
     * with processes attributed by the rundown; TraceLogging, manifest and CLR traces.
     */
    @ParameterizedTest
    @ValueSource(strings = {"perfview__net.4.5.2.x64.etl", "perfview__diaghub.diaghub.kernel.1.etl",
            "airbus__ShutdownPerfDiagLogger.etl", "airbus__AMSITrace.etl", "krabsetw__powershell.etl",
            "perfview__gcevents.etl"})
    void everyGetterAndTextFormShowTheEventAsDumpWritesIt(String name) throws Exception {
        Seen seen = readEveryWay(CorpusFiles.file(name));
        assertTrue(seen.records() > 20, "records: " + seen.records());
        if (name.contains("kernel") || name.contains("net.4.5.2") || name.contains("Shutdown")) {
            assertTrue(seen.paths() > 0, "getFields() labels NT paths as dump shows them");
        }
    }

    /**
     * A trace whose clock is not a multiple of 100 ns (QPC at 3,579,545 Hz, the ACPI PM timer's rate, as older
     * machines report it): {@code toString()}/{@code toJson()} show the time to the nanosecond, as dump does, and a
     * copy keeps it. Before: the text forms printed the FILETIME, and a copy's exactTimestamp() was the FILETIME.
     */
    @Test
    void theTextFormsAndCopiesKeepTheNanosecondsOfTheTracesClock(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pm-timer.etl");
        long start = 133_000_000_000_000_000L;
        LogfileHeader h = EtlWriter.newHeader("pm-timer", file, 4096, start, start - 10_000_000L);
        h = new LogfileHeader(h.bufferSize(), h.osMajor(), h.osMinor(), h.formatMajor(), h.formatMinor(), h.osBuild(),
                h.numberOfProcessors(), h.endTime(), h.timerResolution(), h.maximumFileSizeMb(), h.logFileMode(),
                h.buffersWritten(), h.pointerSize(), h.eventsLost(), h.cpuSpeedMHz(), h.bootTime(), 3_579_545L,
                h.startTime(), h.clockType(), h.buffersLost(), h.timeZoneBiasMinutes(), h.loggerName(),
                h.logFileName());
        try (EtlWriter w = EtlWriter.create(file, h, 3_579_545L)) {
            for (int i = 0; i < 40; i++) {
                w.writeEvent(TestRecord.builder(Guid.of(new UUID(7, 9))).id(1 + i % 3).pid(100).tid(200)
                        .timestamp(start + 1_000 + i * 997L).processor(i % 2).data(new byte[] {(byte) i, 0, 0, 0})
                        .build());
            }
        }
        Seen seen = readEveryWay(file);
        assertEquals(41, seen.records(), "40 events and the header record");
        assertTrue(seen.finerThanFiletime() > 20, "times finer than 100 ns: " + seen.finerThanFiletime());
    }
}
