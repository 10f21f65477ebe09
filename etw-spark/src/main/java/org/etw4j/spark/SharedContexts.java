package org.etw4j.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.etw4j.consumer.LearnedContext;
import org.etw4j.consumer.etl.EtlFormatException;

/**
 * The first (context) pass of each file, run once per executor JVM and shared by the splits of that file that run
 * there, instead of once per split. What a pass leaves is kept: the consumer's {@link LearnedContext} (the trace's
 * context and the schemas it carries on top of the given manifests), or the problem that stopped the pass. Each
 * split's reader takes its own presenter and copy of the schemas from it ({@code ReadSettings.learnedContext}), so
 * it continues exactly as after a pass of its own (what one split harvests later does not reach another) and the
 * rows are the ones a per-split pass gives.
 *
 * <p>Identity ({@link Key}): the file's absolute path, size, modification time and file key, the manifests given to
 * the decoder and whether reading is strict: a file rewritten between two splits, or read with other manifests, is
 * learned again.
 *
 * <p>Lifetime and memory (a context holds per-trace tables: processes, threads, file names): an entry is dropped
 * as soon as as many splits as the scan cut its file into have taken it; that is every split in local mode and on
 * an executor that ran all of a file's splits, so nothing outlives the job there. Entries whose splits ran
 * partly elsewhere (or were retried) stay until more than {@link #MAX_FILES} files are held; then the least
 * recently taken goes. A dropped entry only costs a split that still needs it a pass of its own.
 *
 * <p>Thread-safe. The first split of a file to arrive runs the pass on its task thread; the file's other splits
 * wait for it (one lock per file); splits of other files are not held up.
 */
final class SharedContexts {

    /** Files whose pass is kept at most, per JVM (a few per task slot: splits of a file are scheduled together). */
    static final int MAX_FILES = 8;

    /** What identifies one file's pass ({@code modified}: nanoseconds since the epoch, as the file system keeps them). */
    record Key(String path, long size, long modified, Object fileKey, List<String> manifests, boolean strict) {
    }

    /** What a pass left: the learned context, or the problem that stopped it (then the context is null). */
    record Learned(LearnedContext context, EtlFormatException problem) {

        static Learned of(LearnedContext context) {
            return new Learned(context, null);
        }

        static Learned stopped(EtlFormatException problem) {
            return new Learned(null, problem);
        }
    }

    /** Access-ordered, so the eldest is the least recently taken; guarded by itself. */
    private static final Map<Key, Pass> ENTRIES = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Pass> eldest) {
            return size() > MAX_FILES;
        }
    };

    private SharedContexts() {
    }

    /**
     * What the pass over the file {@code key} names left, for one split of a file cut into {@code splits}: the kept
     * pass, or {@code pass} run now on this thread when none is kept (its exceptions other than the
     * {@link Learned#stopped} outcome propagate, and the next split runs it again).
     */
    static Learned take(Key key, int splits, Supplier<Learned> pass) {
        Pass e;
        synchronized (ENTRIES) {
            e = ENTRIES.computeIfAbsent(key, k -> new Pass());
        }
        Learned l = e.learned(pass);
        synchronized (ENTRIES) {
            if (++e.takes >= splits) {
                ENTRIES.remove(key, e);
            }
        }
        return l;
    }

    /** Files whose pass is held now (for tests and diagnostics). */
    static int held() {
        synchronized (ENTRIES) {
            return ENTRIES.size();
        }
    }

    /** Drops every kept pass. */
    static void clear() {
        synchronized (ENTRIES) {
            ENTRIES.clear();
        }
    }

    /** One file's pass: run by the first taker, under this entry's lock. */
    private static final class Pass {
        /** Guarded by {@link #ENTRIES}. */
        int takes;
        /** Guarded by this. */
        private Learned learned;

        synchronized Learned learned(Supplier<Learned> pass) {
            if (learned == null) {
                learned = pass.get();
            }
            return learned;
        }
    }
}
