package org.etw4j.consumer.model;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.internal.EventRecordAccess;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.internal.decode.ProviderSelection;
import org.etw4j.consumer.etl.EtlClock;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.consumer.output.JsonWriter;
import org.etw4j.format.EventHeaderLayout;

/**
 * The writing pass of {@link Timeline}: turns records into trace events as they come and writes them at once.
 * Not thread-safe; one per write. State: per process and thread drawn, per activity open (its Start's decoded
 * event), per distinct stack-frame node and per provider (selection decided once).
 */
final class TimelineWriter {

    /**
     * A Start or Stop kept for its slice: decoded, presented, with the track it was logged on and its stack's
     * {@code stackFrames} id (0: none).
     */
    private record Half(DecodedEvent event, int pid, int tid, Guid activity, int sf) {
    }

    /** A stack-frame node: its parent's id (0: root) and its name. */
    private record FrameKey(int parent, String name) {
    }

    /** A process track: its names over time (a reused pid), its threads and how much each has. */
    private static final class ProcessTrack {
        final Set<String> names = new LinkedHashSet<>(2);
        final Map<Integer, long[]> threads = new HashMap<>();
        long events;
    }

    private static final int MAX_NAMES_PER_PID = 4;

    private final TraceModel model;
    private final long origin;
    private final Timeline.Options options;
    private final JsonWriter w;
    private final StartStopPairing<Half> pairing;
    private final Map<Integer, ProcessTrack> tracks = new HashMap<>();
    private final Map<FrameKey, Integer> frames = new LinkedHashMap<>();
    private final List<FrameKey> frameOrder = new ArrayList<>();
    private final List<String> frameCategories = new ArrayList<>();
    private final ProviderSelection selection;
    /** The selection's answer per provider GUID, once an event of it was decoded (a provider keeps its name). */
    private final Map<Guid, Boolean> selected = new HashMap<>();
    private long samples;
    private long slices;
    private long instants;

    TimelineWriter(TraceModel model, long origin, Timeline.Options options, Appendable out) {
        this.model = model;
        this.origin = origin;
        this.options = options;
        this.w = new JsonWriter(out);
        this.selection = new ProviderSelection(options.providers());
        this.pairing = new StartStopPairing<>(new StartStopPairing.Listener<>() {
            @Override
            public void matched(Half start, long startTime, long stopTime, Half stop) {
                slice(start, startTime, stopTime, stop);
            }

            @Override
            public void unmatchedStop(Half stop, long time) {
                if (inRange(time)) {
                    instant(stop, time, "unmatched-stop");
                }
            }

            @Override
            public void unmatchedStart(Half start, long time) {
                if (inRange(time)) {
                    instant(start, time, "unmatched-start");
                }
            }
        });
    }

    void begin() {
        w.beginObject();
        w.member("displayTimeUnit", "ms");
        w.name("traceEvents").beginArray();
    }

    /**
     * Draws record {@code r}, whose event {@code event} is (decoded with the options' manifests and shown through
     * the trace's context by the reader; decoded only when drawn).
     */
    void accept(RawEventRecord r, EventRecord event) {
        boolean classic = (r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0;
        if (classic && is(r, KernelSchemas.PERF_INFO) && r.opcode() == 46) {
            if (options.samples()) {
                sample(r);
            }
            return;
        }
        if (classic && is(r, KernelSchemas.STACK_WALK)) {
            return; // the stacks of other events, not events
        }
        boolean pairs = StartStopPairing.takesPart(classic, r.opcode());
        if (!pairs && !options.instants()) {
            return;
        }
        Guid provider = null;
        if (!selection.isEmpty()) {
            provider = r.providerId();
            Boolean known = selected.get(provider);
            if (known == Boolean.FALSE) {
                return;
            }
        }
        long time = r.timestamp();
        if (!pairs && !inRange(time)) {
            return;
        }
        DecodedEvent e = EventRecordAccess.decoded(event);
        if (provider != null && !selected.containsKey(provider)) {
            boolean yes = selection.accepts(e);
            selected.put(provider, yes);
            if (!yes) {
                return;
            }
        }
        int pid = e.process() != null ? e.process().processId() : model.context().processIdOf(r, e);
        Guid activity = r.activityIdMsb() == 0 && r.activityIdLsb() == 0 ? null : r.activityId();
        Half h = new Half(e, pid, r.threadId(), activity, stackOf(r));
        if (!pairs) {
            instant(h, time, null);
            return;
        }
        StartStopPairing.Key key = StartStopPairing.Key.of(r.providerIdMsb(), r.providerIdLsb(), r.task(),
                r.activityIdMsb(), r.activityIdLsb(), r.processId(), r.threadId());
        if (r.opcode() == StartStopPairing.OPCODE_START) {
            pairing.start(key, time, h);
        } else {
            pairing.stop(key, time, h);
        }
    }

    Timeline.Summary finish() {
        pairing.finish();
        int threads = metadata();
        w.endArray();
        w.name("stackFrames").beginObject();
        for (int i = 0; i < frameOrder.size(); i++) {
            FrameKey k = frameOrder.get(i);
            w.name(Integer.toString(i + 1)).beginObject().member("category", frameCategories.get(i))
                    .member("name", k.name());
            if (k.parent() != 0) {
                w.member("parent", k.parent());
            }
            w.endObject();
        }
        w.endObject();
        Timeline.Summary s = new Timeline.Summary(origin, samples, slices, instants, pairing.matched(),
                pairing.unmatchedStarts(), pairing.unmatchedStops(), tracks.size(), threads, frameOrder.size());
        w.name("otherData").beginObject()
                .member("producer", "etw4j timeline")
                .member("traceStart", isoTime(origin))
                .member("samples", s.samples())
                .member("slices", s.slices())
                .member("instants", s.instants())
                .member("startStopPairs", s.pairs())
                .member("unmatchedStarts", s.unmatchedStarts())
                .member("unmatchedStops", s.unmatchedStops())
                .endObject();
        w.endObject();
        return s;
    }

    /**
     * The metadata events: a name and sort index for every process and thread drawn, busiest first; returns the
     * number of threads.
     */
    private int metadata() {
        List<Map.Entry<Integer, ProcessTrack>> procs = new ArrayList<>(tracks.entrySet());
        procs.sort((a, b) -> a.getValue().events != b.getValue().events
                ? Long.compare(b.getValue().events, a.getValue().events) : Integer.compare(a.getKey(), b.getKey()));
        int threads = 0;
        for (int i = 0; i < procs.size(); i++) {
            int pid = procs.get(i).getKey();
            ProcessTrack p = procs.get(i).getValue();
            String name = pid == -1 ? "(no process id)"
                    : p.names.isEmpty() ? "Process " + pid : String.join(" | ", p.names);
            w.beginObject().member("name", "process_name").member("ph", "M").member("pid", id(pid));
            w.name("args").beginObject().member("name", name).endObject().endObject();
            w.beginObject().member("name", "process_sort_index").member("ph", "M").member("pid", id(pid));
            w.name("args").beginObject().member("sort_index", i).endObject().endObject();
            List<Map.Entry<Integer, long[]>> ts = new ArrayList<>(p.threads.entrySet());
            ts.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0])
                    : Integer.compare(a.getKey(), b.getKey()));
            for (int j = 0; j < ts.size(); j++) {
                int tid = ts.get(j).getKey();
                w.beginObject().member("name", "thread_name").member("ph", "M").member("pid", id(pid))
                        .member("tid", id(tid));
                w.name("args").beginObject().member("name", tid == -1 ? "(no thread id)" : "Thread " + tid)
                        .endObject().endObject();
                w.beginObject().member("name", "thread_sort_index").member("ph", "M").member("pid", id(pid))
                        .member("tid", id(tid));
                w.name("args").beginObject().member("sort_index", j).endObject().endObject();
                threads++;
            }
        }
        return threads;
    }

    // ------------------------------------------------------------------------------------------ events

    /**
     * A CPU sample: PerfInfo/SampleProf's InstructionPointer (pointer-sized) and ThreadId, the process the thread
     * belonged to then (as {@link CpuProfile} attributes it).
     */
    private void sample(RawEventRecord r) {
        ByteBuffer b = r.userData().order(ByteOrder.LITTLE_ENDIAN);
        int at = b.position();
        int ps = r.pointerSize();
        if (b.limit() - at < ps + 4) {
            return; // too short: the profile does not count it either (PerfInfo/Sample decodes it with a field error)
        }
        long time = r.timestamp();
        if (!inRange(time)) {
            return;
        }
        long ip = ps == 4 ? b.getInt(at) & 0xFFFF_FFFFL : b.getLong(at);
        int tid = b.getInt(at + ps);
        int pid = model.context().processes().processOfThread(tid, time);
        EventStack st = model.stack(r);
        List<StackFrame> frames;
        if (st != null && !st.frames().isEmpty()) {
            frames = st.frames();
        } else {
            TraceImage image = model.image(ip, pid, time, ps);
            frames = List.of(StackFrame.of(image, image == null && pid > 0 ? model.method(ip, pid, time) : null, ip));
        }
        StackFrame leaf = frames.get(frames.size() - 1);
        int sf = stack(frames);
        track(pid, tid, time);
        w.beginObject().member("name", "CPU sample").member("cat", "cpu").member("ph", "i").member("s", "t");
        ts("ts", time - origin);
        w.member("pid", id(pid)).member("tid", id(tid)).member("sf", sf);
        w.name("args").beginObject().member("frame", leaf.name()).endObject();
        w.endObject();
        samples++;
    }

    private void instant(Half h, long time, String category) {
        DecodedEvent e = h.event();
        track(h.pid(), h.tid(), time);
        w.beginObject().member("name", e.fullName()).member("cat", category != null ? category : e.providerName())
                .member("ph", "i").member("s", "t");
        ts("ts", time - origin);
        w.member("pid", id(h.pid())).member("tid", id(h.tid()));
        if (h.sf() != 0) {
            w.member("sf", h.sf());
        }
        w.name("args");
        EventFormatter.fieldsJson(w, e.fields());
        w.endObject();
        instants++;
    }

    private void slice(Half start, long startTime, long stopTime, Half stop) {
        if (stopTime < options.from() + origin || options.to() != Long.MAX_VALUE && startTime > options.to() + origin) {
            return;
        }
        DecodedEvent e = start.event();
        String task = e.taskName().isEmpty() ? e.eventName() : e.taskName();
        track(start.pid(), start.tid(), startTime);
        w.beginObject().member("name", e.providerName() + "/" + task).member("cat", e.providerName())
                .member("ph", "X");
        ts("ts", startTime - origin);
        ts("dur", stopTime - startTime);
        w.member("pid", id(start.pid())).member("tid", id(start.tid()));
        if (start.sf() != 0) {
            w.member("sf", start.sf());
        }
        if (stop.sf() != 0) {
            w.member("esf", stop.sf());
        }
        w.name("args").beginObject();
        if (start.activity() != null) {
            w.member("activityId", start.activity().toString());
        }
        if (stop.tid() != start.tid()) {
            w.member("stopThread", stop.tid());
        }
        w.name("start");
        EventFormatter.fieldsJson(w, e.fields());
        w.name("stop");
        EventFormatter.fieldsJson(w, stop.event().fields());
        w.endObject();
        w.endObject();
        slices++;
    }

    /**
     * A process or thread id as written: unsigned 32-bit, as ETW's ULONG ids are (an unknown id, 0xFFFFFFFF, is
     * 4294967295, not -1: Perfetto's JSON importer reads ids as uint32 and puts a negative one on pid 0 or drops it,
     * json_trace_parser_impl.cc, google/perfetto).
     */
    private static long id(int processOrThread) {
        return Integer.toUnsignedLong(processOrThread);
    }

    /** Microseconds from 100 ns ticks, exactly. */
    private void ts(String name, long ticks) {
        w.name(name).decimalValue(ticks, 1);
    }

    private boolean inRange(long time) {
        long t = time - origin;
        return t >= options.from() && t <= options.to();
    }

    // ------------------------------------------------------------------------------------------ tracks

    private void track(int pid, int tid, long time) {
        ProcessTrack p = tracks.computeIfAbsent(pid, k -> new ProcessTrack());
        p.events++;
        p.threads.computeIfAbsent(tid, k -> new long[1])[0]++;
        if (p.names.size() < MAX_NAMES_PER_PID && pid != -1) {
            ProcessLifetime life = model.process(pid, time);
            if (life != null && !life.process().name().isEmpty()) {
                p.names.add(life.process().name());
            }
        }
    }

    // ------------------------------------------------------------------------------------------ stacks

    /** The {@code stackFrames} id of the stack the trace recorded for {@code r}, 0 when none. */
    private int stackOf(RawEventRecord r) {
        EventStack st = model.stack(r);
        return st == null || st.frames().isEmpty() ? 0 : stack(st.frames());
    }

    /** The id of the node for {@code stack} (root first), adding the nodes not seen yet. */
    private int stack(List<StackFrame> stack) {
        int parent = 0;
        for (StackFrame f : stack) {
            FrameKey k = new FrameKey(parent, f.name());
            Integer id = frames.get(k);
            if (id == null) {
                id = frames.size() + 1;
                frames.put(k, id);
                frameOrder.add(k);
                frameCategories.add(f.image() != null ? f.image().moduleName() : f.method() != null ? ".NET JIT"
                        : "unknown");
            }
            parent = id;
        }
        return parent;
    }

    private static boolean is(RawEventRecord r, Guid g) {
        return r.providerIdMsb() == g.mostSignificantBits() && r.providerIdLsb() == g.leastSignificantBits();
    }

    static String isoTime(long fileTime) {
        return EtlClock.fileTimeToInstant(fileTime).toString();
    }
}
