package org.etw4j.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.decode.TraceContext;
import org.etw4j.consumer.etl.EtlFormatException;

/**
 * The first (context) pass of each file, run once per executor JVM and shared by the splits of that file that run
 * there, instead of once per split. What a pass leaves is kept: the learned {@link TraceContext} and the decoder's
 * registry with the manifests and metadata the trace carries, or the problem that stopped the pass. Each split
 * then takes its own {@linkplain TraceContext#presenter() presenter} of the context and a decoder over its own
 * {@linkplain ManifestRegistry#copy() copy} of the registry, so it continues exactly as after a pass of its own
 * (what one split harvests later does not reach another) and the rows are the ones a per-split pass gives.
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

    /** What a pass left: the context and registry, or the problem that stopped it (then both are null). */
    record Learned(TraceContext context, ManifestRegistry registry, EtlFormatException problem) {

        static Learned of(TraceContext context, ManifestRegistry registry) {
            return new Learned(context, registry, null);
        }

        static Learned stopped(EtlFormatException problem) {
            return new Learned(null, null, problem);
        }

        /** One taker's share (not thread-safe: callers of one pass take in turn). */
        Taken share() {
            return problem != null ? new Taken(null, null, problem)
                    : new Taken(context.presenter(), new EventDecoder(registry.copy()), null);
        }
    }

    /** One split's share: its own presenter and decoder, or the problem that stopped the pass. */
    record Taken(TraceContext context, EventDecoder decoder, EtlFormatException problem) {
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
     * The share of one split of the file {@code key} names, of a file cut into {@code splits}: from the kept pass,
     * or from {@code pass} run now on this thread when none is kept (its exceptions other than the
     * {@link Learned#stopped} outcome propagate, and the next split runs it again).
     */
    static Taken take(Key key, int splits, Supplier<Learned> pass) {
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
        synchronized (e) {
            // presenter() marks the learned context frozen: done under the entry's lock, which every taker holds
            return l.share();
        }
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
