package org.etw4j.consumer.model;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.etw4j.consumer.ProcessLifetime;
import org.etw4j.consumer.output.JsonWriter;

/**
 * The CPU samples of a trace (kernel PerfInfo/SampleProf, opcode 46), aggregated by process, thread and stack.
 * Immutable once built by {@link TraceModel}; thread-safe for reading. Size: one entry per distinct (process,
 * thread, stack), not per sample.
 *
 * @see TraceModel#cpuProfile()
 */
public final class CpuProfile {

    /**
     * Samples that shared a process, a thread and a stack.
     *
     * @param processId the process the thread belonged to at the samples' times (Thread events), {@code -1} when
     *                  no Thread event named the thread
     * @param process   that process instance ({@code null} when no Process event described it)
     * @param threadId the sampled thread
     * @param frames   the stack, root first (the sampled instruction last)
     * @param count    the number of samples
     */
    public record StackCount(int processId, ProcessLifetime process, int threadId, List<StackFrame> frames, long count) {

        /** {@code name (pid)} as the root of a folded stack; {@code ? (-1)} when unknown. */
        public String processLabel() {
            String name = process == null || process.process().name().isEmpty() ? "?" : process.process().name();
            return name + " (" + processId() + ")";
        }
    }

    private final List<StackCount> stacks;
    private final long samples;
    private final long samplesWithStack;
    private final long intervalHundredNs;

    CpuProfile(List<StackCount> stacks, long samples, long samplesWithStack, long intervalHundredNs) {
        this.stacks = List.copyOf(stacks);
        this.samples = samples;
        this.samplesWithStack = samplesWithStack;
        this.intervalHundredNs = intervalHundredNs;
    }

    /** Every (process, thread, stack) with its sample count. */
    public List<StackCount> stacks() {
        return stacks;
    }

    /** Number of samples in the trace (the sum of every {@link StackCount#count()}). */
    public long sampleCount() {
        return samples;
    }

    /**
     * Number of samples a StackWalk stack or stack key was joined to (the others have their sampled address only);
     * {@code -1} in a {@link #filter filtered} profile.
     */
    public long samplesWithStack() {
        return samplesWithStack;
    }

    /**
     * The sampling interval in 100 ns units as the trace's PerfInfo SetInterval / CollectionStart events give it
     * (NewInterval of the timer source, 0), or {@code -1} when the trace has none.
     */
    public long intervalHundredNs() {
        return intervalHundredNs;
    }

    /** Sample counts per process id (insertion order: first seen). */
    public Map<Integer, Long> countsByProcessId() {
        Map<Integer, Long> out = new LinkedHashMap<>();
        for (StackCount s : stacks) {
            out.merge(s.processId(), s.count(), Long::sum);
        }
        return out;
    }

    /** The stacks of processes {@code filter} accepts. */
    public CpuProfile filter(Predicate<StackCount> filter) {
        List<StackCount> kept = new ArrayList<>();
        long n = 0;
        for (StackCount s : stacks) {
            if (filter.test(s)) {
                kept.add(s);
                n += s.count();
            }
        }
        return new CpuProfile(kept, n, -1, intervalHundredNs);
    }

    /**
     * Writes the folded-stack (collapsed) form flame-graph tools read (Brendan Gregg's FlameGraph
     * {@code stackcollapse} output): one line per distinct stack, frames root first separated by {@code ;}, a space,
     * the count. The root frame is the process ({@code name (pid)}), then the thread ({@code Thread (tid)}); stacks
     * differing only by thread id are merged when {@code perThread} is false. Semicolons inside names become
     * {@code :}.
     */
    public void writeCollapsed(Appendable out, boolean perThread) throws IOException {
        Map<String, Long> lines = new LinkedHashMap<>();
        for (StackCount s : stacks) {
            StringBuilder b = new StringBuilder(s.processLabel().replace(';', ':'));
            if (perThread) {
                b.append(";Thread (").append(s.threadId()).append(')');
            }
            for (StackFrame f : s.frames()) {
                b.append(';').append(f.name().replace(';', ':'));
            }
            lines.merge(b.toString(), s.count(), Long::sum);
        }
        for (Map.Entry<String, Long> e : lines.entrySet()) {
            out.append(e.getKey()).append(' ').append(Long.toString(e.getValue())).append('\n');
        }
    }

    /**
     * Writes the profile as a speedscope file (https://www.speedscope.app/file-format-schema.json): shared frames,
     * one "sampled" profile per process, each sample a stack of frame indexes root first, weights the sample counts
     * (unit {@code none}).
     */
    public void writeSpeedscope(Appendable out, String name) {
        Map<String, Integer> frameIds = new LinkedHashMap<>();
        Map<String, List<StackCount>> byProcess = new LinkedHashMap<>();
        for (StackCount s : stacks) {
            byProcess.computeIfAbsent(s.processLabel(), k -> new ArrayList<>()).add(s);
            for (StackFrame f : s.frames()) {
                frameIds.putIfAbsent(f.name(), frameIds.size());
            }
        }
        JsonWriter w = new JsonWriter(out);
        w.beginObject();
        w.member("$schema", "https://www.speedscope.app/file-format-schema.json");
        w.member("name", name);
        w.member("exporter", "etw4j");
        w.member("activeProfileIndex", 0);
        w.name("shared").beginObject().name("frames").beginArray();
        for (String f : frameIds.keySet()) {
            w.beginObject().member("name", f).endObject();
        }
        w.endArray().endObject();
        w.name("profiles").beginArray();
        for (Map.Entry<String, List<StackCount>> p : byProcess.entrySet()) {
            Map<List<Integer>, Long> merged = new LinkedHashMap<>();
            long total = 0;
            for (StackCount s : p.getValue()) {
                List<Integer> ids = new ArrayList<>(s.frames().size());
                for (StackFrame f : s.frames()) {
                    ids.add(frameIds.get(f.name()));
                }
                merged.merge(ids, s.count(), Long::sum);
                total += s.count();
            }
            w.beginObject();
            w.member("type", "sampled");
            w.member("name", p.getKey());
            w.member("unit", "none");
            w.member("startValue", 0);
            w.member("endValue", total);
            w.name("samples").beginArray();
            for (List<Integer> ids : merged.keySet()) {
                w.beginArray();
                for (int id : ids) {
                    w.value(id);
                }
                w.endArray();
            }
            w.endArray();
            w.name("weights").beginArray();
            for (long c : merged.values()) {
                w.value(c);
            }
            w.endArray();
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }

    /** Sample counts keyed by the aggregation key, while {@link TraceModel} builds a profile. */
    static final class Builder {
        record Key(int pid, long processStart, int tid, List<StackFrame> frames) {
        }

        final Map<Key, Long> counts = new HashMap<>();
        long samples;
        long samplesWithStack;
    }
}
