package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.consumer.CorpusFiles;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.format.EventHeaderLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Timeline} on corpus traces, its JSON read back with Jackson ({@link TraceEventCheck}: valid per the Trace
 * Event Format, every pid/tid with events named) and its counts compared with counts made here from the file
 * directly: CPU samples equal {@link CpuProfile}'s (also per process), slices equal the Start/Stop pairs counted by
 * a plain depth counter per key, unmatched Starts and Stops are drawn and counted, every other event is an
 * instant, and every slice lies inside the trace (first to last record) with start before end.
 */
class TimelineCorpusTest {

    /** What a plain scan of the file finds. */
    private static final class Plain {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long samples;
        long stacks;
        long others;
        long pairs;
        long unmatchedStops;
        long unmatchedStarts;
    }

    /**
     * The pairing rule of StartStopPairing written out plainly: EVENT_HEADER events with opcode 1/2, keyed by provider,
     * task and activity id, or by provider, task, process and thread when the activity id is GUID_NULL; a depth per
     * key.
     */
    private static Plain scan(Path file) throws IOException {
        Plain p = new Plain();
        Map<String, Integer> depth = new HashMap<>();
        EtlRecordEvent r = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(file)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                r.of(c.record());
                p.first = Math.min(p.first, r.timestamp());
                p.last = Math.max(p.last, r.timestamp());
                boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
                if (classic && r.providerId().equals(KernelSchemas.PERF_INFO) && r.opcode() == 46
                        && r.userDataLength() >= r.pointerSize() + 4) {
                    p.samples++;
                } else if (classic && r.providerId().equals(KernelSchemas.PERF_INFO) && r.opcode() == 46) {
                    continue; // too short to hold a sample: the profile skips it, so does the timeline
                } else if (classic && r.providerId().equals(KernelSchemas.STACK_WALK)) {
                    p.stacks++;
                } else if (!classic && (r.opcode() == 1 || r.opcode() == 2)) {
                    boolean none = r.activityId().isNull();
                    String key = r.providerId() + "/" + r.task() + "/"
                            + (none ? r.processId() + "/" + r.threadId() : r.activityId().toString());
                    int d = depth.getOrDefault(key, 0);
                    if (r.opcode() == 1) {
                        depth.put(key, d + 1);
                    } else if (d == 0) {
                        p.unmatchedStops++;
                    } else {
                        depth.put(key, d - 1);
                        p.pairs++;
                    }
                } else {
                    p.others++;
                }
            }
        }
        for (int d : depth.values()) {
            p.unmatchedStarts += d;
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"perfview__net.4.5.2.x64.etl", "perfview__gcevents.etl", "krabsetw__powershell.etl",
            "airbus__AMSITrace.etl", "perfview__diaghub.diaghub.user_injected.1.etl"})
    void timelineMatchesPlainCounts(String name) throws IOException {
        Path file = CorpusFiles.file(name);
        Plain plain = scan(file);
        StringWriter out = new StringWriter();
        TraceModel model;
        Timeline.Summary s;
        try (EtlFile f = EtlFile.open(file)) {
            model = TraceModel.read(List.of(f));
            s = Timeline.write(model, List.of(f), Timeline.Options.defaults(), out);
        }
        TraceEventCheck json = TraceEventCheck.read(out.toString());
        System.out.println(name + ": " + s + ", plain pairs " + plain.pairs + ", JSON " + out.getBuffer().length()
                + " chars");

        // CPU samples: as many as the profile counts, per process too, each with a resolvable stack.
        List<TraceEventCheck.Event> samples = json.events.stream().filter(e -> "cpu".equals(e.cat())).toList();
        assertEquals(model.cpuProfile().sampleCount(), samples.size(), "samples == CpuProfile.sampleCount()");
        assertEquals(plain.samples, samples.size(), "samples == plain count of PerfInfo/SampleProf");
        Map<Integer, Long> perPid = new HashMap<>();
        for (TraceEventCheck.Event e : samples) {
            perPid.merge((int) e.pid(), 1L, Long::sum);
            assertEquals(e.args().get("frame").asText(), json.chain(e.sf()).getLast(), "sf ends at the frame");
        }
        assertEquals(new HashMap<>(model.cpuProfile().countsByProcessId()), perPid, "samples per process");
        // Each sample's sf chain is its stack: per (process, thread, stack) as many as the profile aggregated.
        Map<List<Object>, Long> byStack = new HashMap<>();
        for (TraceEventCheck.Event e : samples) {
            byStack.merge(List.of(e.pid(), e.tid(), json.chain(e.sf())), 1L, Long::sum);
        }
        Map<List<Object>, Long> profiled = new HashMap<>();
        for (CpuProfile.StackCount c : model.cpuProfile().stacks()) {
            profiled.merge(List.of(Integer.toUnsignedLong(c.processId()), Integer.toUnsignedLong(c.threadId()),
                    c.frames().stream().map(StackFrame::name).toList()), c.count(), Long::sum);
        }
        // Exactly, with no tolerance: a sample whose StackWalk stack comes after the model stopped waiting for it
        // (net.4.5.2: pid 980, tid 1016) has that stack in the profile too, as TraceModel.stack finds it.
        assertEquals(profiled, byStack, "samples per process, thread and stack");
        long longer = samples.stream().filter(e -> json.chain(e.sf()).size() > 1).count();
        System.out.println(name + ": samples with more than one frame: " + longer);
        // Other events' stacks (extended items, StackWalk): sf chains that resolve.
        long stackedInstants = json.events.stream().filter(e -> e.sf() != null && !"cpu".equals(e.cat())).count();
        System.out.println(name + ": other events with a stack: " + stackedInstants);
        if (name.equals("perfview__net.4.5.2.x64.etl")) {
            assertTrue(longer > 6000 && stackedInstants > 0, "stacks drawn: " + longer + ", " + stackedInstants);
        }
        assertTrue(json.events.stream().anyMatch(e -> e.pid() == 0xFFFF_FFFFL) == json.processNames.containsKey(
                0xFFFF_FFFFL), "events without a process id on their own track, 4294967295");
        assertEquals(s.samples(), samples.size());

        // Slices: as many as the plainly counted pairs, inside the trace, start before end.
        List<TraceEventCheck.Event> slices = json.phase("X");
        assertEquals(plain.pairs, slices.size(), "slices == Start/Stop pairs");
        assertEquals(plain.pairs, s.pairs());
        assertEquals(plain.pairs, s.slices());
        // The origin: the earlier of the header's start time and the first record, both FILETIME (a raw timestamp
        // here once put every event 1.3e16 microseconds after it; TimelineCommandTest saw its --from range empty).
        long headerStart;
        try (EtlFile f = EtlFile.open(file)) {
            headerStart = f.header().startTime() > 0 ? f.header().startTime() : Long.MAX_VALUE;
        }
        assertEquals(Math.min(headerStart, plain.first), s.traceStart(), "the timeline's origin");
        double end = (plain.last - s.traceStart()) / 10.0;
        long zero = 0;
        for (TraceEventCheck.Event e : slices) {
            assertTrue(e.ts() >= 0 && e.ts() + e.dur() <= end, "slice inside the trace: " + e);
            assertTrue(e.args().has("start") && e.args().has("stop"), "start and stop fields: " + e);
            if (e.dur() == 0) {
                zero++;
            }
        }
        assertEquals(0, zero, "slices whose Stop has the Start's timestamp");

        // Unmatched Starts and Stops: drawn and counted, not dropped.
        assertEquals(plain.unmatchedStarts, json.count("i", "unmatched-start"));
        assertEquals(plain.unmatchedStops, json.count("i", "unmatched-stop"));
        assertEquals(plain.unmatchedStarts, s.unmatchedStarts());
        assertEquals(plain.unmatchedStops, s.unmatchedStops());
        assertEquals(plain.unmatchedStarts, json.root.get("otherData").get("unmatchedStarts").asLong());
        assertEquals(plain.unmatchedStops, json.root.get("otherData").get("unmatchedStops").asLong());

        // Every other event an instant; nothing else in the file (StackWalk events are stacks).
        long instants = json.phase("i").size() - samples.size();
        assertEquals(plain.others + plain.unmatchedStarts + plain.unmatchedStops, instants, "instants");
        assertEquals(s.instants(), instants);
        for (TraceEventCheck.Event e : json.events) {
            assertTrue(e.ts() >= 0 && e.ts() <= end, "inside the trace: " + e);
        }
        if (name.equals("perfview__net.4.5.2.x64.etl")) {
            // .NET 4.5 logs GC/Start twice per GC (version 1, then version 2 with ClientSequenceNumber) and one
            // GC/Stop: the Stop closes the last Start (version 2); each version-1 copy stays unmatched.
            List<TraceEventCheck.Event> gcSlices = slices.stream()
                    .filter(e -> e.name().equals("Microsoft-Windows-DotNETRuntime/GarbageCollection")).toList();
            List<TraceEventCheck.Event> gcUnmatched = json.events.stream().filter(e -> "unmatched-start".equals(e.cat())
                    && e.name().equals("Microsoft-Windows-DotNETRuntime/GarbageCollection/Start")).toList();
            assertEquals(264, gcSlices.size());
            assertEquals(264, gcUnmatched.size());
            assertTrue(gcSlices.stream().allMatch(e -> e.args().get("start").has("ClientSequenceNumber")));
            assertTrue(gcUnmatched.stream().noneMatch(e -> e.args().has("ClientSequenceNumber")));
        }
        assertEquals(s.processes(), json.processNames.size());
        assertEquals(s.threads(), json.threadNames.size());
    }

    @Test
    void progressCoversThreePassesAndEndsAtOne() throws IOException {
        List<double[]> calls = new java.util.ArrayList<>();
        Timeline.write(CorpusFiles.file("perfview__gcevents.etl"),
                Timeline.Options.defaults()
                        .withProgress((pass, passes, f) -> calls.add(new double[] {pass, passes, f})),
                new StringWriter());
        assertTrue(calls.stream().allMatch(c -> c[1] == 3 && c[2] >= 0 && c[2] <= 1), "3 passes, fractions 0..1");
        assertEquals(List.of(1.0, 2.0, 3.0), calls.stream().map(c -> c[0]).distinct().toList(), "passes in order");
        assertEquals(1.0, calls.getLast()[2]);
        assertEquals(3.0, calls.getLast()[0]);
    }
}
