package org.etw4j.consumer;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * An {@link EventStream} over a real-time session with a queue between ETW's delivery thread and the handler
 * thread ({@link Backpressure#BLOCK} or {@link Backpressure#DROP_NEWEST}): the delivery thread (started by
 * {@link #run()}) copies each record into a bounded queue, the handler thread takes them. Losses and errors seen on
 * the delivery thread are reported on the handler thread, before the next record.
 */
final class QueuedSessionStream extends AbstractEventStream {
    private static final Object END = new Object();
    private static final long POLL_MILLIS = 50;

    /** A failure the delivery thread passes to the handler thread. */
    private record Failure(Throwable error) {
    }

    private final TraceConsumer consumer;
    private final BlockingQueue<Object> queue;
    private volatile Thread deliveryThread;
    // Losses and errors seen on the delivery thread, reported on the handler thread.
    private final AtomicLong pendingDropped = new AtomicLong();
    private final AtomicLong pendingSessionLost = new AtomicLong();
    private final AtomicLong pendingSessionBuffersLost = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> pendingErrors = new ConcurrentLinkedQueue<>();

    QueuedSessionStream(String sessionName, EtwBackend backend, StreamOptions options) {
        super("session " + sessionName, options, new RecordDecoding());
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        // Opening the consumer now makes the session keep events for us until start() (OpenTrace, then
        // ProcessTrace: MS Learn, "Consuming events").
        this.consumer = backend.openRealTime(sessionName, new Sink());
    }

    @Override
    void run() throws InterruptedException {
        Thread delivery = new Thread(() -> {
            try {
                consumer.process();
            } catch (Throwable t) {
                enqueueControl(new Failure(t));
            } finally {
                enqueueControl(END);
            }
        }, "etw4j-stream-delivery-" + description);
        delivery.setDaemon(true);
        deliveryThread = delivery;
        delivery.start();
        while (!closing) {
            Object o = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            reportPending();
            if (o == null) {
                continue;
            }
            if (o == END) {
                break;
            }
            if (o instanceof Failure f) {
                fireError(f.error());
                continue;
            }
            dispatch((EventRecord) o);
        }
        if (closing) {
            consumer.close();
            delivery.join(TimeUnit.SECONDS.toMillis(10));
            long left = 0;
            for (Object o; (o = queue.poll()) != null; ) {
                if (o instanceof EventRecord) {
                    left++;
                } else if (o instanceof Failure f) {
                    fireError(f.error());
                }
            }
            discarded.addAndGet(left);
        }
        reportPending();
    }

    @Override
    void stopSource() {
        consumer.close(); // makes ProcessTrace return; safe from any thread
    }

    @Override
    void release() {
        Thread d = deliveryThread;
        if (d != null && d != Thread.currentThread()) {
            try {
                d.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Queues END or a failure for the handler thread, unless the stream is being closed. */
    private void enqueueControl(Object o) {
        try {
            while (!queue.offer(o, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (closing) {
                    if (o instanceof Failure f) {
                        LOG.log(System.Logger.Level.WARNING, "event stream over " + description + " closed with an error", f.error());
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reportPending() {
        if (pendingDropped.get() != 0) {
            fireLost(new LostEvents(LostEvents.Source.STREAM_QUEUE, pendingDropped.getAndSet(0), 0));
        }
        if (pendingSessionLost.get() != 0 || pendingSessionBuffersLost.get() != 0) {
            long e = pendingSessionLost.getAndSet(0);
            long b = pendingSessionBuffersLost.getAndSet(0);
            fireLost(new LostEvents(LostEvents.Source.SESSION, e, b));
        }
        for (Throwable t; (t = pendingErrors.poll()) != null; ) {
            fireError(t);
        }
    }

    /** What the backend delivers to, on its delivery thread: copies into the queue. */
    private final class Sink implements RecordSink {
        @Override
        public void onRecord(RawEventRecord record) {
            if (!admit(record)) {
                return;
            }
            // The copy is decoded on the handler thread, after the callback: platform (TDH) schemas must be
            // looked up now, while the record can still ask.
            decoding.decoder.prefetchPlatformSchema(record);
            if (options.backpressure() == Backpressure.DROP_NEWEST) {
                // Only this thread adds records, so space seen here is still there for the offer below.
                if (queue.remainingCapacity() == 0 || !queue.offer(EventRecord.copyOf(record, decoding))) {
                    dropped++;
                    pendingDropped.incrementAndGet();
                }
                return;
            }
            EventRecord copy = EventRecord.copyOf(record, decoding);
            try {
                while (!queue.offer(copy, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    if (closing) {
                        discarded.incrementAndGet();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                discarded.incrementAndGet();
            }
        }

        @Override
        public void onLost(long events, long buffers) {
            lostBySession += events;
            pendingSessionLost.addAndGet(events);
            pendingSessionBuffersLost.addAndGet(buffers);
        }

        @Override
        public void onUndelivered(long events, long buffers) {
            undeliveredBySource += events; // reported with the discarded ones when the stream finishes
        }

        @Override
        public void onError(Throwable error) {
            pendingErrors.add(error);
        }
    }
}
