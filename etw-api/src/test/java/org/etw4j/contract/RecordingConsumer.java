package org.etw4j.contract;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.etw4j.spi.EtwBackend;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * A real-time consumer on its own platform thread that copies every record it gets (tests only).
 */
class RecordingConsumer implements RecordSink, AutoCloseable {
    final List<RecordedEvent> events = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    final AtomicLong lost = new AtomicLong();
    final AtomicLong undelivered = new AtomicLong();
    /** For each BufferCallback, how many records had arrived before it. */
    final List<Integer> bufferEnds = new CopyOnWriteArrayList<>();
    /** Runs in onRecord before the record is kept (tests that hold the delivery thread). */
    private final java.util.function.Consumer<RawEventRecord> beforeRecord;
    private final TraceConsumer consumer;
    private final Thread thread;

    RecordingConsumer(EtwBackend backend, String session) {
        this(backend, session, r -> { });
    }

    /** A consumer whose delivery thread runs {@code beforeRecord} first in every record callback. */
    RecordingConsumer(EtwBackend backend, String session, java.util.function.Consumer<RawEventRecord> beforeRecord) {
        this.beforeRecord = beforeRecord;
        this.consumer = backend.openRealTime(session, this);
        this.thread = new Thread(consumer::process, "test-consumer-" + session);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void onRecord(RawEventRecord record) {
        beforeRecord.accept(record);
        events.add(RecordedEvent.copyOf(record));
    }

    @Override
    public void onBufferDelivered() {
        bufferEnds.add(events.size());
    }

    @Override
    public void onUndelivered(long events, long buffers) {
        undelivered.addAndGet(events);
    }

    @Override
    public void onLost(long eventCount, long buffers) {
        lost.addAndGet(eventCount);
    }

    @Override
    public void onError(Throwable error) {
        errors.add(error);
    }

    /** Events of provider {@code pred} (synthetic header events excluded by the predicate). */
    List<RecordedEvent> matching(Predicate<RecordedEvent> pred) {
        List<RecordedEvent> out = new ArrayList<>();
        for (RecordedEvent e : events) {
            if (pred.test(e)) {
                out.add(e);
            }
        }
        return out;
    }

    /** Waits until {@code count} events match, or fails. */
    List<RecordedEvent> await(Predicate<RecordedEvent> pred, int count, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            List<RecordedEvent> m = matching(pred);
            if (m.size() >= count) {
                return m;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        fail("expected " + count + " events, got " + matching(pred).size() + " (errors: " + errors + ")");
        return List.of();
    }

    /** Waits for the processing thread to end (after the session stops). */
    void join(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
