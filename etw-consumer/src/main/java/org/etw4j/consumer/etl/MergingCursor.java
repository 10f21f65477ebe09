package org.etw4j.consumer.etl;

import java.util.ArrayList;
import java.util.List;

/**
 * The reader's one merge: a K-way merge of {@link RecordStream}s (one per processor of each file) by timestamp,
 * with a binary min-heap of streams, each positioned on its next record. Within one file the key is the raw
 * timestamp; across several files (each with its own raw clock) it is the FILETIME each file's clock converts it
 * to, ties broken by the order the files were given in, then by raw timestamp and processor. As the conversion is
 * monotonic, the records of one file keep their one-file order, so several files merge exactly as their own
 * cursors merged one after the other would. With one stream it is the file-order cursor.
 *
 * <p>Not thread-safe; one thread advances it. Per record: one stream advance and one sift-down; no allocation.
 * The order is deterministic. It is the one merge of etw4j: the consumer's one read loop
 * ({@code org.etw4j.consumer.internal.FilePass}, under every stream, reader and command) reads through it, and
 * presents its records to the decoder itself. Created through {@link EtlFile#cursor(EtlOrder, long, long, EtlBufferFilter)} and
 * {@link EtlFile#merge(List)}.
 */
final class MergingCursor implements EtlCursor {
    private final RecordStream[] heap;
    /** All streams, for the record accounting (the heap drops the ones that ended). */
    private final RecordStream[] streams;
    /** Several files: keys are FILETIME, converted by each record's own file clock. */
    private final boolean acrossFiles;
    private long returned;
    private final EtlRecordView view = new EtlRecordView();
    private int count;
    private boolean started;
    private RecordStream current;
    private long lastKey = Long.MIN_VALUE;
    private long outOfOrder;

    private MergingCursor(RecordStream[] streams, boolean acrossFiles) {
        this.heap = streams;
        this.streams = streams.clone();
        this.acrossFiles = acrossFiles;
    }

    /** The merge of one file's streams (raw timestamps). */
    static MergingCursor ofStreams(RecordStream[] streams) {
        return new MergingCursor(streams, false);
    }

    /** The merge of several files' time-ordered streams (FILETIME, then file order). */
    static MergingCursor ofFiles(List<EtlFile> files) {
        if (files.size() == 1) {
            return ofStreams(files.get(0).streams(EtlOrder.TIME, 0, Long.MAX_VALUE, EtlBufferFilter.ALL));
        }
        List<RecordStream> all = new ArrayList<>();
        for (int rank = 0; rank < files.size(); rank++) {
            for (RecordStream s : files.get(rank).streams(EtlOrder.TIME, 0, Long.MAX_VALUE, EtlBufferFilter.ALL)) {
                s.fileRank = rank;
                all.add(s);
            }
        }
        return new MergingCursor(all.toArray(new RecordStream[0]), true);
    }

    @Override
    public boolean advance() {
        if (!started) {
            started = true;
            for (RecordStream s : streams) {
                if (s.advance()) {
                    s.mergeKey = key(s);
                    heap[count++] = s;
                }
            }
            for (int i = count; i < heap.length; i++) {
                heap[i] = null;
            }
            for (int i = count / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
        } else if (current != null) {
            if (current.advance()) {
                current.mergeKey = key(current);
            } else {
                heap[0] = heap[--count];
                heap[count] = null;
            }
            if (count > 0) {
                siftDown(0);
            }
        }
        if (count == 0) {
            current = null;
            view.detach();
            return false;
        }
        current = heap[0];
        long key = current.mergeKey;
        if (key < lastKey) {
            outOfOrder++;
        }
        lastKey = key;
        view.attach(current);
        returned++;
        return true;
    }

    private long key(RecordStream s) {
        return acrossFiles ? s.file.clock().toFileTime(s.timestamp) : s.timestamp;
    }

    @Override
    public EtlRecordView record() {
        if (current == null) {
            throw new IllegalStateException(started ? "no more records" : "advance() has not been called");
        }
        return view;
    }

    @Override
    public long outOfOrderCount() {
        return outOfOrder;
    }

    @Override
    public EtlRecordCounts recordCounts() {
        long seen = 0;
        long warned = 0;
        for (RecordStream s : streams) {
            seen += s.recordsSeen;
            warned += s.recordsWarned;
        }
        return new EtlRecordCounts(seen, returned, warned);
    }

    private static boolean before(RecordStream a, RecordStream b) {
        if (a.mergeKey != b.mergeKey) {
            return a.mergeKey < b.mergeKey;
        }
        if (a.fileRank != b.fileRank) {
            return a.fileRank < b.fileRank;
        }
        return a.timestamp < b.timestamp || (a.timestamp == b.timestamp && a.id < b.id);
    }

    private void siftDown(int i) {
        RecordStream s = heap[i];
        int n = count;
        for (;;) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], s)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = s;
    }
}
