package org.etw4j.consumer.etl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Several .etl files read as one stream in time order: the files' time-ordered cursors merged by
 * converted timestamp (FILETIME, since each file has its own raw clock).
 *
 * <p>Not thread-safe; one thread advances it. {@link #record()} returns the view of the cursor whose
 * record is current (one view object per file), valid until the next {@link #advance()}. Ties are broken
 * by the order the files were given in. Closing the files is the caller's job.
 */
public final class EtlMergedCursor implements EtlCursor {
    private final EtlCursor[] heap;
    /** All cursors, for the record accounting (the heap drops the ones that ended). */
    private final EtlCursor[] cursors;
    private long returned;
    private final long[] keys;
    private final int[] order;
    private int count;
    private boolean started;
    private int currentSlot = -1;
    private long lastKey = Long.MIN_VALUE;
    private long outOfOrder;

    private EtlMergedCursor(List<? extends EtlCursor> cursors) {
        int n = cursors.size();
        heap = new EtlCursor[n];
        keys = new long[n];
        order = new int[n];
        for (int i = 0; i < n; i++) {
            heap[i] = Objects.requireNonNull(cursors.get(i), "cursor");
            order[i] = i;
        }
        this.cursors = heap.clone();
    }

    /** Merges the time-ordered cursors of {@code files}. */
    public static EtlMergedCursor of(List<EtlFile> files) {
        List<EtlCursor> cursors = new ArrayList<>(files.size());
        for (EtlFile f : files) {
            cursors.add(f.cursor(EtlOrder.TIME));
        }
        return new EtlMergedCursor(cursors);
    }

    /** Merges arbitrary cursors (each should be in time order) by their records' FILETIME. */
    public static EtlMergedCursor ofCursors(List<? extends EtlCursor> cursors) {
        return new EtlMergedCursor(cursors);
    }

    @Override
    public boolean advance() {
        if (!started) {
            started = true;
            int n = heap.length;
            for (int i = 0; i < n; i++) {
                EtlCursor c = heap[i];
                int o = order[i];
                if (c.advance()) {
                    heap[count] = c;
                    order[count] = o;
                    keys[count] = c.record().timestampFileTime();
                    count++;
                }
            }
            for (int i = count / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
        } else if (currentSlot >= 0) {
            EtlCursor top = heap[0];
            if (top.advance()) {
                keys[0] = top.record().timestampFileTime();
            } else {
                count--;
                heap[0] = heap[count];
                keys[0] = keys[count];
                order[0] = order[count];
                heap[count] = null;
            }
            if (count > 0) {
                siftDown(0);
            }
        }
        if (count == 0) {
            currentSlot = -1;
            return false;
        }
        currentSlot = 0;
        if (keys[0] < lastKey) {
            outOfOrder++;
        }
        lastKey = keys[0];
        returned++;
        return true;
    }

    @Override
    public EtlRecordView record() {
        if (currentSlot < 0) {
            throw new IllegalStateException(started ? "no more records" : "advance() has not been called");
        }
        return heap[0].record();
    }

    @Override
    public long outOfOrderCount() {
        return outOfOrder;
    }

    /**
     * Seen and warned: the sums over the merged cursors; returned: the records this cursor returned (the merge
     * holds one record per file that is returned by its own cursor but not yet by this one: pending).
     */
    @Override
    public EtlRecordCounts recordCounts() {
        EtlRecordCounts sum = new EtlRecordCounts(0, 0, 0);
        for (EtlCursor c : cursors) {
            sum = sum.plus(c.recordCounts());
        }
        return new EtlRecordCounts(sum.seen(), returned, sum.warned());
    }

    private boolean before(int a, int b) {
        return keys[a] < keys[b] || (keys[a] == keys[b] && order[a] < order[b]);
    }

    private void siftDown(int i) {
        for (;;) {
            int child = 2 * i + 1;
            if (child >= count) {
                return;
            }
            if (child + 1 < count && before(child + 1, child)) {
                child++;
            }
            if (!before(child, i)) {
                return;
            }
            swap(i, child);
            i = child;
        }
    }

    private void swap(int a, int b) {
        EtlCursor c = heap[a];
        heap[a] = heap[b];
        heap[b] = c;
        long k = keys[a];
        keys[a] = keys[b];
        keys[b] = k;
        int o = order[a];
        order[a] = order[b];
        order[b] = o;
    }
}
