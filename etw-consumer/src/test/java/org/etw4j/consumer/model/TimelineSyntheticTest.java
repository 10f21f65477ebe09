package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.output.JsonWriter;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.RawEventRecord;
import org.junit.jupiter.api.Test;

/**
 * The pairing rules of {@link StartStopPairing} and their slices on hand-built records (EVENT_HEADER events without
 * a schema: named {@code EventID(n)}), read back with Jackson ({@link TraceEventCheck}). Times are 100 ns ticks from
 * the origin, so {@code ts} is ticks / 10 microseconds.
 */
class TimelineSyntheticTest {

    private static final Guid A = Guid.parse("11111111-2222-3333-4444-555555555555");
    private static final Guid B = Guid.parse("66666666-7777-8888-9999-000000000000");
    private static final long ORIGIN = 1_000_000;

    private final List<RawEventRecord> records = new ArrayList<>();

    private void event(Guid provider, int id, int opcode, int task, long time, int pid, int tid, Guid activity) {
        records.add(TestRecord.builder(provider).id(id).opcode(opcode).task(task).timestamp(ORIGIN + time).pid(pid)
                .tid(tid).activity(activity).build());
    }

    private void start(int task, long time, int tid) {
        event(A, 10 + task, 1, task, time, 100, tid, Guid.NULL);
    }

    private void stop(int task, long time, int tid) {
        event(A, 20 + task, 2, task, time, 100, tid, Guid.NULL);
    }

    private TraceEventCheck timeline(Timeline.Options options, Timeline.Summary[] summary) throws IOException {
        records.sort(Comparator.comparingLong(RawEventRecord::timestamp));
        TraceModel model = TraceModel.read(each -> records.forEach(each));
        StringBuilder out = new StringBuilder();
        Timeline.Summary s = Timeline.write(model, each -> records.forEach(each), ORIGIN, options, out);
        if (summary != null) {
            summary[0] = s;
        }
        return TraceEventCheck.read(out.toString());
    }

    private TraceEventCheck timeline() throws IOException {
        return timeline(Timeline.Options.defaults(), null);
    }

    private static List<TraceEventCheck.Event> slicesByStart(TraceEventCheck t) {
        return t.phase("X").stream().sorted(Comparator.comparingDouble(TraceEventCheck.Event::ts)).toList();
    }

    @Test
    void nestedStartsOnOneThreadCloseLastFirst() throws IOException {
        start(5, 10, 1);
        start(5, 20, 1);
        stop(5, 30, 1);
        stop(5, 45, 1);
        TraceEventCheck t = timeline();
        List<TraceEventCheck.Event> x = slicesByStart(t);
        assertEquals(2, x.size());
        assertEquals(1.0, x.get(0).ts());
        assertEquals(3.5, x.get(0).dur()); // outer: 10..45
        assertEquals(2.0, x.get(1).ts());
        assertEquals(1.0, x.get(1).dur()); // inner: 20..30
        assertTrue(x.get(0).name().endsWith("/EventID(15)"), "Provider/Task, the Start's event name without a task: "
                + x.get(0).name());
        assertTrue(x.get(0).args().get("start").isObject() && x.get(0).args().get("stop").isObject());
        assertEquals(0, t.phase("i").size(), "no instants: everything paired");
    }

    @Test
    void threadsInterleavedPairOnTheirOwnThread() throws IOException {
        start(5, 10, 1);
        start(5, 15, 2);
        stop(5, 20, 1);
        stop(5, 30, 2);
        TraceEventCheck t = timeline();
        List<TraceEventCheck.Event> x = slicesByStart(t);
        assertEquals(2, x.size());
        assertEquals(List.of(1L, 1.0, 1.0), List.of(x.get(0).tid(), x.get(0).ts(), x.get(0).dur()));
        assertEquals(List.of(2L, 1.5, 1.5), List.of(x.get(1).tid(), x.get(1).ts(), x.get(1).dur()));
    }

    @Test
    void startWithoutStopAndStopWithoutStartAreInstantsAndCounted() throws IOException {
        start(5, 10, 1);      // never stopped
        stop(5, 20, 2);       // nothing open on thread 2
        start(6, 30, 3);
        stop(7, 40, 3);       // other task: no match, both unmatched
        Timeline.Summary[] s = new Timeline.Summary[1];
        TraceEventCheck t = timeline(Timeline.Options.defaults(), s);
        assertEquals(0, t.phase("X").size());
        assertEquals(2, t.count("i", "unmatched-start"));
        assertEquals(2, t.count("i", "unmatched-stop"));
        assertEquals(2, s[0].unmatchedStarts());
        assertEquals(2, s[0].unmatchedStops());
        assertEquals(0, s[0].pairs());
        assertEquals(2, t.root.get("otherData").get("unmatchedStarts").asInt());
        List<Double> starts = t.events.stream().filter(e -> "unmatched-start".equals(e.cat()))
                .map(TraceEventCheck.Event::ts).sorted().toList();
        assertEquals(List.of(1.0, 3.0), starts, "drawn at their own time");
    }

    @Test
    void activityIdsPairAcrossThreadsAndKeepTheStartsTrack() throws IOException {
        Guid x = Guid.parse("aaaaaaaa-0000-0000-0000-000000000001");
        Guid y = Guid.parse("aaaaaaaa-0000-0000-0000-000000000002");
        event(A, 1, 1, 9, 70, 100, 5, x);
        event(A, 1, 1, 9, 75, 100, 5, y);
        event(A, 2, 2, 9, 80, 100, 6, y);   // Y stops first, on another thread
        event(A, 2, 2, 9, 90, 100, 7, x);
        TraceEventCheck t = timeline();
        List<TraceEventCheck.Event> s = slicesByStart(t);
        assertEquals(2, s.size());
        assertEquals(7.0, s.get(0).ts());
        assertEquals(2.0, s.get(0).dur());
        assertEquals(x.toString(), s.get(0).args().get("activityId").asText());
        assertEquals(7, s.get(0).args().get("stopThread").asInt());
        assertEquals(5, s.get(0).tid());
        assertEquals(7.5, s.get(1).ts());
        assertEquals(0.5, s.get(1).dur());
        assertEquals(y.toString(), s.get(1).args().get("activityId").asText());
    }

    @Test
    void sameActivityIdDifferentProvidersAreSeparateActivities() throws IOException {
        Guid x = Guid.parse("aaaaaaaa-0000-0000-0000-000000000001");
        event(A, 1, 1, 9, 10, 100, 5, x);
        event(B, 1, 1, 9, 20, 100, 5, x);
        event(A, 2, 2, 9, 30, 100, 5, x);
        TraceEventCheck t = timeline();
        List<TraceEventCheck.Event> s = slicesByStart(t);
        assertEquals(1, s.size());
        assertEquals(1.0, s.get(0).ts(), "A's Start, not B's later one");
        assertEquals(1, t.count("i", "unmatched-start"));
    }

    @Test
    void classicStartEndEventsAreNotPaired() throws IOException {
        records.add(TestRecord.builder(KernelSchemas.PROCESS).classic().opcode(1).timestamp(ORIGIN + 10).pid(4)
                .tid(8).build());
        records.add(TestRecord.builder(KernelSchemas.PROCESS).classic().opcode(2).timestamp(ORIGIN + 20).pid(4)
                .tid(8).build());
        Timeline.Summary[] s = new Timeline.Summary[1];
        TraceEventCheck t = timeline(Timeline.Options.defaults(), s);
        assertEquals(0, t.phase("X").size());
        assertEquals(2, t.phase("i").size());
        assertEquals(0, s[0].unmatchedStarts() + s[0].unmatchedStops());
    }

    @Test
    void providerSelectionAndTimeRange() throws IOException {
        event(A, 3, 0, 0, 10, 100, 1, Guid.NULL);
        event(B, 3, 0, 0, 20, 100, 1, Guid.NULL);
        event(B, 4, 0, 0, 30, 100, 1, Guid.NULL);
        event(B, 1, 1, 2, 35, 100, 1, Guid.NULL);
        event(B, 2, 2, 2, 50, 100, 1, Guid.NULL);
        TraceEventCheck onlyB = timeline(Timeline.Options.defaults().withProviders(List.of("{" + B + "}")), null);
        assertEquals(2, onlyB.phase("i").size());
        assertEquals(1, onlyB.phase("X").size());
        assertTrue(onlyB.events.stream().allMatch(e -> e.cat().equalsIgnoreCase(B.toString())), "B's only");
        TraceEventCheck range = timeline(Timeline.Options.defaults().withRange(15, 30), null);
        assertEquals(List.of(2.0, 3.0), range.phase("i").stream().map(TraceEventCheck.Event::ts).toList());
        assertEquals(0, range.phase("X").size(), "35..50 is outside 15..30");
        TraceEventCheck overlap = timeline(Timeline.Options.defaults().withRange(40, 45), null);
        assertEquals(1, overlap.phase("X").size(), "a slice overlapping the range is drawn whole");
        assertEquals(3.5, overlap.phase("X").get(0).ts());
        assertThrows(IllegalArgumentException.class, () -> Timeline.Options.defaults().withRange(5, 4));
    }

    @Test
    void tracksAreNamedAndSorted() throws IOException {
        event(A, 3, 0, 0, 10, 100, 1, Guid.NULL);
        event(A, 3, 0, 0, 11, 100, 2, Guid.NULL);
        event(A, 3, 0, 0, 12, 100, 2, Guid.NULL);
        event(A, 3, 0, 0, 13, 200, 3, Guid.NULL);
        TraceEventCheck t = timeline();
        assertEquals("Process 100", t.processNames.get(100L), "no Process event: named by its id");
        assertEquals("Thread 2", t.threadNames.get(List.of(100L, 2L)));
        assertEquals(2, t.processNames.size());
        assertEquals(3, t.threadNames.size());
    }

    @Test
    void decimalMicroseconds() {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb).beginArray();
        w.decimalValue(123456789, 1).decimalValue(120, 1).decimalValue(-5, 2).decimalValue(0, 1)
                .decimalValue(7, 3).decimalValue(Long.MIN_VALUE, 1).endArray();
        assertEquals("[12345678.9,12,-0.05,0,0.007,-922337203685477580.8]", sb.toString());
    }
}
