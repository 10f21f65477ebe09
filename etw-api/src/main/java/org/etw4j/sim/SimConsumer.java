package org.etw4j.sim;

import static org.etw4j.format.EventHeaderLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.LinkedBlockingQueue;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderView;
import org.etw4j.LogfileHeader;
import org.etw4j.TimestampConverter;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * A real-time consumer of a simulated session ({@code OpenTrace} + {@code ProcessTrace}, MS Learn, PEVENT_RECORD_CALLBACK callback function).
 *
 * <p>{@link #process()} runs on the caller's thread: the synthetic header event first (provider EventTraceGuid,
 * opcode 0, payload TRACE_LOGFILE_HEADER), then the buffers the session hands over, record by record, with
 * timestamps converted to FILETIME. Sink exceptions are caught and reported to {@link RecordSink#onError}.
 * {@link #close()} is idempotent and may be called from any thread, the sink's callbacks included: as CloseTrace
 * with ERROR_CTX_CLOSE_PENDING (MS Learn, CloseTrace function), the buffers the session had already handed to this
 * consumer are still delivered, then process() returns; the events of the session's unflushed buffer never come
 * and are reported once through {@link RecordSink#onUndelivered}.
 */
final class SimConsumer implements TraceConsumer {
    static final SimConsumer[] NONE = new SimConsumer[0];
    /** EventTraceGuid: the provider of the synthetic trace-header events. */
    static final Guid EVENT_TRACE_GUID = org.etw4j.controller.KernelEventGroup.EVENT_TRACE.guid();
    private static final Object END = new Object();

    private final SimSession session;
    private final RecordSink sink;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final EventHeaderView view = new EventHeaderView();
    private volatile boolean closed;
    private boolean processed;
    /** Guarded by this: nothing will take buffers from the queue any more (closed unprocessed, or process() done). */
    private boolean abandoned;
    /** Events of the session's unflushed buffer when this consumer closed (set by the session): never delivered. */
    volatile long undelivered;
    /** Counted down when close() has detached and reported: process() after an early close returns only then. */
    private final java.util.concurrent.CountDownLatch closeReported = new java.util.concurrent.CountDownLatch(1);

    SimConsumer(SimSession session, RecordSink sink) {
        this.session = session;
        this.sink = sink;
    }

    void offer(SessionBuffer b) {
        synchronized (this) {
            if (!abandoned) {
                queue.add(b);
                return;
            }
        }
        session.release(b);
    }

    /** The session stopped; {@code lostTail} events were lost after the last buffer this consumer got. */
    void end(long lostTail) {
        if (lostTail > 0) {
            queue.add(new LostTail(lostTail));
        }
        queue.add(END);
    }

    /** Losses to report before the end of the trace. */
    private record LostTail(long events) {
    }

    @Override
    public void process() {
        synchronized (this) {
            if (processed) {
                throw new IllegalStateException("ProcessTrace: this trace was already processed");
            }
            processed = true;
        }
        deliverHeaderEvent();
        if (closedBeforeProcessing()) {
            try {
                closeReported.await(); // close() releases the queue and reports what it held
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            while (true) {
                Object o = queue.take();
                if (o == END) {
                    break;
                }
                if (o instanceof LostTail t) {
                    safe(() -> sink.onLost(t.events(), 0));
                    continue;
                }
                SessionBuffer b = (SessionBuffer) o;
                try {
                    if (b.lostBefore > 0) {
                        safe(() -> sink.onLost(b.lostBefore, 0));
                    }
                    deliverRecords(b);
                    bufferDelivered();
                } finally {
                    session.release(b);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                abandoned = true;
            }
            long left = drain() + undelivered;
            if (left > 0) {
                safe(() -> sink.onUndelivered(left, 0));
            }
        }
    }

    private void deliverRecords(SessionBuffer b) {
        int end = b.bb.getInt(WmiBufferLayout.SAVED_OFFSET);
        int p = WmiBufferLayout.HEADER_SIZE;
        TimestampConverter timestamps = session.timestampConverter();
        while (p + HEADER_SIZE <= end) {
            int size;
            try {
                size = view.reset(b.bb, p, 0, timestamps);
            } catch (IllegalArgumentException e) {
                reportError(e);
                return;
            }
            try {
                sink.onRecord(view); // no lambda here: this loop must not allocate per record
            } catch (Throwable t) {
                reportError(t);
            }
            p += WmiBufferLayout.align(size);
        }
    }

    /** The BufferCallback after each buffer (MS Learn, PEVENT_TRACE_BUFFER_CALLBACKW); no lambda: no allocation. */
    private void bufferDelivered() {
        try {
            sink.onBufferDelivered();
        } catch (Throwable t) {
            reportError(t);
        }
    }

    private void reportError(Throwable t) {
        try {
            sink.onError(t);
        } catch (Throwable ignored) {
            // the error handler itself failed: nothing more to tell
        }
    }

    /** MS Learn, PEVENT_RECORD_CALLBACK callback function: the first event of a trace is a synthetic one carrying TRACE_LOGFILE_HEADER. */
    private void deliverHeaderEvent() {
        LogfileHeader h = session.header();
        int payload = h.encodedSize64();
        int size = HEADER_SIZE + payload;
        ByteBuffer b = ByteBuffer.allocate(WmiBufferLayout.align(size)).order(ByteOrder.LITTLE_ENDIAN);
        long now = session.timestampConverter().startRaw();
        RecordEncoder.header(b, 0, size, false, (int) Thread.currentThread().getId(), (int) ProcessHandle.current().pid(), now,
                EVENT_TRACE_GUID, new EventDescriptor(0, 2, 0, 0, 0, 0, 0), Guid.NULL);
        b.putShort(FLAGS, (short) FLAG_CLASSIC_HEADER);
        h.encode64(b, HEADER_SIZE);
        view.reset(b, 0, 0, session.timestampConverter());
        safe(() -> sink.onRecord(view));
    }

    private void safe(Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            try {
                sink.onError(t);
            } catch (Throwable ignored) {
                // the error handler itself failed: nothing more to tell
            }
        }
    }

    private synchronized boolean closedBeforeProcessing() {
        return abandoned;
    }

    /** Releases what is left in the queue; returns the events of the buffers released (never delivered). */
    private long drain() {
        long events = 0;
        for (Object o; (o = queue.poll()) != null; ) {
            if (o instanceof SessionBuffer b) {
                events += b.events;
                session.release(b);
            }
        }
        return events;
    }

    @Override
    public void close() {
        boolean neverProcessed;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            neverProcessed = !processed;
            if (neverProcessed) {
                abandoned = true; // process() will not run: buffers handed over from now on are released at once
            }
        }
        session.detach(this);
        if (neverProcessed) {
            long left = drain() + undelivered;
            if (left > 0) {
                safe(() -> sink.onUndelivered(left, 0));
            }
        }
        closeReported.countDown();
    }
}
