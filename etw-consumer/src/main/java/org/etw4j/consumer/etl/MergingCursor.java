package org.etw4j.consumer.etl;

/**
 * K-way merge of {@link RecordStream}s by raw timestamp: a binary min-heap of streams, each positioned on
 * its next record. With one stream it is the file-order cursor.
 *
 * <p>Not thread-safe; one thread advances it. Per record: one stream advance and one sift-down; no
 * allocation. Ties are broken by stream id (processor order), so the order is deterministic.
 */
final class MergingCursor implements EtlCursor {
    private final RecordStream[] heap;
    /** All streams, for the record accounting (the heap drops the ones that ended). */
    private final RecordStream[] streams;
    private long returned;
    private final EtlRecordView view = new EtlRecordView();
    private int count;
    private boolean started;
    private RecordStream current;
    private long lastTimestamp = Long.MIN_VALUE;
    private long outOfOrder;

    MergingCursor(RecordStream[] streams) {
        this.heap = streams;
        this.streams = streams.clone();
    }

    @Override
    public boolean advance() {
        if (!started) {
            started = true;
            for (RecordStream s : heap) {
                if (s.advance()) {
                    heap[count++] = s;
                }
            }
            for (int i = count / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
        } else if (current != null) {
            if (!current.advance()) {
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
        long ts = current.timestamp;
        if (ts < lastTimestamp) {
            outOfOrder++;
        }
        lastTimestamp = ts;
        view.attach(current);
        returned++;
        return true;
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
