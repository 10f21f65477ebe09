package org.etw4j.sim;

import static org.etw4j.format.EventHeaderLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.LogfileHeader;
import org.etw4j.TimestampConverter;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.provider.EventData;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.SessionUpdates;

/**
 * A simulated trace session: per-session filters, fixed-size buffers from a bounded pool, a logger thread that
 * delivers full or flushed buffers to real-time consumers and the log file, and exact loss accounting.
 *
 * <p>Thread-safe. Writers append under the session lock (no allocation per event); a full buffer goes to the
 * logger thread; when no buffer is free the event is lost and counted (MS Learn, EventWrite function, ERROR_NOT_ENOUGH_MEMORY). At
 * every moment {@code accepted = delivered + lost + pending}. A real-time session with no consumer keeps its
 * buffers for the first consumer to attach (MS Learn, PEVENT_RECORD_CALLBACK callback function) until the pool runs out. {@link #stop()} is idempotent.
 */
final class SimSession implements SessionControl {
    private static final Object STOP = new Object();

    private final SimulatedBackend backend;
    private final Guid sessionId;
    private final int loggerId;
    private volatile SessionConfig config;
    private final SessionClock clock;
    private final LogfileHeader header;
    private final SimLogFile sink;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<SessionBuffer> free = new ArrayDeque<>();
    private final ArrayDeque<SessionBuffer> retained = new ArrayDeque<>();
    private final LinkedBlockingQueue<Object> toLogger = new LinkedBlockingQueue<>();
    private final Thread logger;
    final Map<Guid, SessionFilter> enabled = new ConcurrentHashMap<>();
    private volatile SimConsumer[] consumers = SimConsumer.NONE;
    private volatile boolean running = true;
    private final KernelSimulation kernel;
    private long lastStamp; // guarded by lock
    /** The logger thread has ended the consumers (guarded by lock): a consumer detached now is ended at once. */
    private boolean finished;

    /** A consumer that closed: the logger ends it after the buffers queued before (CloseTrace's pending close). */
    private record Detached(SimConsumer consumer) {
    }

    // counters, guarded by lock
    private int allocated;
    private SessionBuffer current;
    private long accepted;
    private long delivered;
    private long lost;
    private long lostSinceDelivery;
    private long queuedEvents;
    private long retainedEvents;
    private long buffersWritten;
    private long buffersLost;
    private long realTimeBuffersLost;
    private long sequence;

    SimSession(SimulatedBackend backend, SessionConfig config, int loggerId) {
        this.backend = backend;
        this.config = config;
        this.loggerId = loggerId;
        this.sessionId = org.etw4j.spi.SessionIds.newSessionId(config.name()); // as the Windows backend gives them
        this.clock = new SessionClock(config.clockType());
        this.header = backend.logfileHeader(config, clock);
        SimLogFile s = null;
        if (config.logFile() != null) {
            try {
                s = new SimLogFile(backend, config, header, clock.startRaw());
            } catch (IOException e) {
                throw new EtwException("StartTraceW", Win32Error.ERROR_BAD_PATHNAME.code(), config.logFile() + ": " + e.getMessage());
            }
        }
        this.sink = s;
        for (int i = 0; i < config.minimumBuffers(); i++) {
            free.add(new SessionBuffer(config.bufferSizeBytes()));
        }
        allocated = config.minimumBuffers();
        this.logger = new Thread(this::runLogger, "etw4j-logger-" + config.name());
        logger.setDaemon(true);
        logger.start();
        this.kernel = config.kernel() == null ? null : KernelSimulation.start(this, config.kernel(), backend.pid());
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public Guid sessionId() {
        return sessionId;
    }

    @Override
    public SessionConfig config() {
        return config;
    }

    int loggerId() {
        return loggerId;
    }

    TimestampConverter timestampConverter() {
        return clock.converter();
    }

    LogfileHeader header() {
        return header;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void enableProvider(Guid providerId, EnableParameters parameters) {
        checkRunning("EnableTraceEx2");
        backend.enable(this, providerId, parameters);
    }

    @Override
    public void disableProvider(Guid providerId, java.time.Duration callbackWait) {
        checkRunning("EnableTraceEx2");
        backend.disable(this, providerId, callbackWait);
    }

    @Override
    public void captureState(Guid providerId, EnableParameters parameters) {
        checkRunning("EnableTraceEx2");
        backend.captureState(this, providerId, parameters);
    }

    private void checkRunning(String function) {
        if (!running) {
            throw new EtwException(function, Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND.code(), "session '" + name() + "' is stopped");
        }
    }

    /**
     * Appends one event that passed this session's filter. Returns ERROR_SUCCESS, ERROR_MORE_DATA (the event can
     * never fit a buffer) or ERROR_NOT_ENOUGH_MEMORY (no free buffer: lost).
     */
    int append(SessionFilter f, Guid provider, EventDescriptor d, Guid activity, Guid related, EventData data,
               int traitsIndex, int metadataIndex, int payloadSize, int tid) {
        int extSize = 0;
        int items = 0;
        boolean hasRelated = related != null && !related.isNull();
        if (hasRelated) {
            extSize += RecordEncoder.itemSize(Guid.BYTES);
            items++;
        }
        byte[] sid = f.wantsSid ? backend.userSid() : null;
        if (sid != null) {
            extSize += RecordEncoder.itemSize(sid.length);
            items++;
        }
        if (f.wantsTsId) {
            extSize += RecordEncoder.itemSize(4);
            items++;
        }
        long[] stack = f.wantsStack ? StackCapture.capture() : null;
        if (stack != null) {
            extSize += RecordEncoder.itemSize(8 + 8 * stack.length);
            items++;
        }
        if (f.wantsProcessStartKey) {
            extSize += RecordEncoder.itemSize(8);
            items++;
        }
        if (traitsIndex >= 0) {
            extSize += RecordEncoder.itemSize(data.length(traitsIndex));
            items++;
        }
        if (metadataIndex >= 0) {
            extSize += RecordEncoder.itemSize(data.length(metadataIndex));
            items++;
        }
        int size = RecordEncoder.recordSize(extSize, payloadSize);
        if (size < 0) {
            return Win32Error.ERROR_ARITHMETIC_OVERFLOW.code();
        }
        int aligned = WmiBufferLayout.align(size);
        lock.lock();
        try {
            if (!running) {
                return 0;
            }
            accepted++;
            int room = roomLocked(aligned);
            if (room != 0) {
                return room;
            }
            ByteBuffer b = current.bb;
            int at = current.position;
            // the alignment padding (at most 7 bytes, inside the record's last 8, aligned >= HEADER_SIZE) is zero:
            // one store now, overwritten by the record's own bytes where they reach
            b.putLong(at + aligned - 8, 0L);
            long now = kernel == null ? clock.now() : stampLocked();
            int p = RecordEncoder.header(b, at, size, items > 0, tid, backend.pid(), now, provider, d, activity);
            if (config.privateInProcess()) {
                // EVENT_HEADER_FLAG_PRIVATE_SESSION: "The event was logged to a private session" (MS Learn, EVENT_HEADER)
                b.putShort(at + FLAGS, (short) (b.getShort(at + FLAGS) | FLAG_PRIVATE_SESSION));
            }
            int left = items;
            if (hasRelated) {
                p = RecordEncoder.guidItem(b, p, EXT_RELATED_ACTIVITYID, related, --left > 0);
            }
            if (sid != null) {
                p = RecordEncoder.bytesItem(b, p, EXT_SID, sid, --left > 0);
            }
            if (f.wantsTsId) {
                p = RecordEncoder.intItem(b, p, EXT_TS_ID, backend.terminalSessionId(), --left > 0);
            }
            if (stack != null) {
                int q = RecordEncoder.itemHeader(b, p, EXT_STACK_TRACE64, 8 + 8 * stack.length, --left > 0);
                b.putLong(q, 0L); // MatchId
                for (int i = 0; i < stack.length; i++) {
                    b.putLong(q + 8 + 8 * i, stack[i]);
                }
                p += RecordEncoder.itemSize(8 + 8 * stack.length);
            }
            if (f.wantsProcessStartKey) {
                p = RecordEncoder.longItem(b, p, EXT_PROCESS_START_KEY, backend.processStartKey(), --left > 0);
            }
            if (traitsIndex >= 0) {
                p = RecordEncoder.blockItem(b, p, EXT_PROV_TRAITS, data, traitsIndex, --left > 0);
            }
            if (metadataIndex >= 0) {
                p = RecordEncoder.blockItem(b, p, EXT_EVENT_SCHEMA_TL, data, metadataIndex, --left > 0);
            }
            RecordEncoder.payload(b, p, data, traitsIndex < 0 && metadataIndex < 0);
            current.position = at + aligned;
            current.events++;
            return 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends the kernel records {@code build} makes for the timestamp it is given (one clock reading, taken under
     * the session's lock so that records stay in time order in the buffer), each 8-byte aligned with zero padding.
     * A record that finds no free buffer is lost and counted, as Windows counts EventsLost.
     */
    void appendKernel(java.util.function.Function<java.util.function.LongSupplier, java.util.List<byte[]>> build) {
        lock.lock();
        try {
            if (!running) {
                return;
            }
            for (byte[] r : build.apply(this::stampLocked)) {
                int aligned = WmiBufferLayout.align(r.length);
                accepted++;
                if (roomLocked(aligned) != 0) {
                    continue; // lost and counted
                }
                int at = current.position;
                current.bb.putLong(at + aligned - 8, 0L);
                current.bb.put(at, r, 0, r.length);
                current.position = at + aligned;
                current.events++;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A timestamp after every one given before in a session with a kernel simulation: the model joins a StackWalk
     * to its event by (thread, timestamp), and two events of one thread never share a QPC reading on Windows, while
     * this clock (10 MHz) can give one reading twice. Called with the lock held.
     */
    private long stampLocked() {
        lastStamp = Math.max(clock.now(), lastStamp + 1);
        return lastStamp;
    }

    /** The kernel simulation failed: recorded as the backend's other background errors are. */
    void kernelError(Throwable e) {
        backend.recordError(e);
    }

    /**
     * Makes {@code current} a buffer with room for {@code aligned} bytes (sealing the full one); returns 0, or
     * ERROR_MORE_DATA (never fits a buffer) / ERROR_NOT_ENOUGH_MEMORY (no free buffer) with the record counted lost.
     */
    private int roomLocked(int aligned) {
        if (aligned > config.bufferSizeBytes() - WmiBufferLayout.HEADER_SIZE) {
            lost++;
            lostSinceDelivery++;
            return Win32Error.ERROR_MORE_DATA.code();
        }
        if (current == null || current.remaining() < aligned) {
            if (current != null) {
                flushCurrentLocked(consumers);
            }
            current = takeFreeLocked();
            if (current == null) {
                lost++;
                lostSinceDelivery++;
                return Win32Error.ERROR_NOT_ENOUGH_MEMORY.code();
            }
        }
        return 0;
    }

    private SessionBuffer takeFreeLocked() {
        SessionBuffer b = free.poll();
        if (b == null && allocated < config.maximumBuffers()) {
            allocated++;
            b = new SessionBuffer(config.bufferSizeBytes());
        }
        return b;
    }

    /** Seals the current buffer and queues it for the logger thread, addressed to {@code recipients}. */
    private void flushCurrentLocked(SimConsumer[] recipients) {
        SessionBuffer b = current;
        current = null;
        if (b == null) {
            return;
        }
        if (b.events == 0) {
            b.recycle();
            free.add(b);
            return;
        }
        b.seal(clock.now(), ++sequence, loggerId);
        b.recipients = recipients;
        b.lostBefore = lostSinceDelivery;
        lostSinceDelivery = 0;
        queuedEvents += b.events;
        toLogger.add(b);
    }

    @Override
    public void flush() {
        if (!running) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        lock.lock();
        try {
            flushCurrentLocked(consumers);
            toLogger.add(done);
        } finally {
            lock.unlock();
        }
        try {
            done.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The logger thread: delivers buffers, flushes on the timer, ends consumers and the file at stop. */
    private void runLogger() {
        try {
            while (true) {
                long timer = config.flushTimer().toMillis();
                Object o = timer > 0 ? toLogger.poll(timer, TimeUnit.MILLISECONDS) : toLogger.take();
                if (o == null) {
                    lock.lock();
                    try {
                        if (current != null && current.events > 0) {
                            flushCurrentLocked(consumers);
                        }
                    } finally {
                        lock.unlock();
                    }
                } else if (o instanceof SessionBuffer b) {
                    deliver(b);
                } else if (o instanceof CountDownLatch latch) {
                    latch.countDown();
                } else if (o instanceof Detached d) {
                    d.consumer().end(0);
                } else if (o == STOP) {
                    finish();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deliver(SessionBuffer b) {
        boolean written = false;
        if (sink != null) {
            long lostSoFar;
            lock.lock();
            try {
                lostSoFar = lost;
            } finally {
                lock.unlock();
            }
            try {
                written = sink.write(b.bb.duplicate().position(0).limit(b.capacity()), b.events, clock.nowFileTime(), lostSoFar);
            } catch (IOException e) {
                backend.recordError(e);
            }
        }
        SimConsumer[] to = b.recipients;
        lock.lock();
        try {
            queuedEvents -= b.events;
            if (to.length > 0 || written) {
                delivered += b.events;
                buffersWritten++;
            } else if (config.realTime()) {
                retained.add(b);
                retainedEvents += b.events;
                return;
            } else {
                lost += b.events;
                buffersLost++;
            }
            if (to.length == 0) {
                recycleLocked(b);
                return;
            }
            b.references.set(to.length);
        } finally {
            lock.unlock();
        }
        for (SimConsumer c : to) {
            c.offer(b);
        }
    }

    /** A consumer is done with {@code b}. */
    void release(SessionBuffer b) {
        if (b.references.decrementAndGet() == 0) {
            lock.lock();
            try {
                recycleLocked(b);
            } finally {
                lock.unlock();
            }
        }
    }

    private void recycleLocked(SessionBuffer b) {
        b.recycle();
        free.add(b);
    }

    /**
     * Attaches a real-time consumer (MS Learn, PEVENT_RECORD_CALLBACK callback function): the first consumer takes the buffered events; a later one only
     * sees events written after it attached.
     */
    void attach(SimConsumer c) {
        lock.lock();
        try {
            if (!running) {
                throw new EtwException("OpenTraceW", Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND.code(), "session '" + name() + "' is stopped");
            }
            if (!config.realTime()) {
                throw new EtwException("OpenTraceW", Win32Error.ERROR_INVALID_PARAMETER.code(),
                        "session '" + name() + "' is not a real-time session");
            }
            boolean first = consumers.length == 0;
            SimConsumer[] withNew = Arrays.copyOf(consumers, consumers.length + 1);
            withNew[withNew.length - 1] = c;
            if (first) {
                for (SessionBuffer b; (b = retained.poll()) != null; ) {
                    retainedEvents -= b.events;
                    delivered += b.events;
                    buffersWritten++;
                    b.references.set(1);
                    c.offer(b);
                }
                consumers = withNew;
                flushCurrentLocked(withNew);
            } else {
                flushCurrentLocked(consumers); // events so far are "old" for the new consumer
                consumers = withNew;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Detaches a closing consumer ({@code CloseTrace}) and returns the events it will never receive: those of the
     * current, unflushed buffer, which would have gone to it. Buffers already queued for it are still handed over
     * and then it is ended, in that order on the logger thread (MS Learn, CloseTrace function,
     * ERROR_CTX_CLOSE_PENDING: "The ProcessTrace function will stop after it has processed all real-time events in
     * its buffers (it will not receive any new events)"); at once if the session has already ended its consumers.
     * The count is given to the consumer before it can be ended.
     */
    void detach(SimConsumer c) {
        lock.lock();
        try {
            SimConsumer[] now = consumers;
            int i = Arrays.asList(now).indexOf(c);
            if (i < 0) {
                c.end(0); // the session ended it already, or never attached it
                return;
            }
            SimConsumer[] less = new SimConsumer[now.length - 1];
            System.arraycopy(now, 0, less, 0, i);
            System.arraycopy(now, i + 1, less, i, now.length - i - 1);
            consumers = less.length == 0 ? SimConsumer.NONE : less;
            c.undelivered = current == null ? 0 : current.events;
            if (finished) {
                c.end(0);
            } else {
                toLogger.add(new Detached(c));
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public SessionStatistics query() {
        lock.lock();
        try {
            long pending = (current == null ? 0 : current.events) + queuedEvents + retainedEvents;
            return new SessionStatistics(accepted, delivered, lost, pending, buffersWritten, buffersLost, realTimeBuffersLost,
                    allocated, free.size());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void update(SessionConfig newConfig) {
        checkRunning("ControlTraceW");
        SessionUpdates.check(config, newConfig); // what ControlTrace UPDATE applies, nothing else
        config = newConfig;
    }

    @Override
    public void stop() {
        if (kernel != null && running) {
            kernel.stop(); // Windows logs the end rundown (DCEnd) before the session stops
        }
        lock.lock();
        try {
            if (!running) {
                return;
            }
            running = false;
        } finally {
            lock.unlock();
        }
        backend.sessionStopping(this);
        lock.lock();
        try {
            flushCurrentLocked(consumers);
            toLogger.add(STOP);
        } finally {
            lock.unlock();
        }
        if (Thread.currentThread() != logger) {
            try {
                logger.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void finish() {
        SimConsumer[] ending;
        long lostTail;
        lock.lock();
        try {
            for (SessionBuffer b; (b = retained.poll()) != null; ) {
                retainedEvents -= b.events;
                lost += b.events;
                buffersLost++;
                realTimeBuffersLost++;
                recycleLocked(b);
            }
            ending = consumers;
            lostTail = lostSinceDelivery; // losses after the last delivered buffer
            lostSinceDelivery = 0;
            finished = true;
            // consumers that closed after STOP was queued: nothing more will be handed to them
            for (Object o; (o = toLogger.poll()) != null; ) {
                if (o instanceof Detached d) {
                    d.consumer().end(0);
                } else if (o instanceof CountDownLatch latch) {
                    latch.countDown();
                }
            }
        } finally {
            lock.unlock();
        }
        if (sink != null) {
            try {
                SessionStatistics s = query();
                // a file that refused buffers (SEQUENTIAL, full) counts their events lost even when a real-time
                // consumer of the same session received them
                long fileLost = s.eventsLost() + (config.realTime() ? sink.eventsLost() : 0);
                sink.close(header.withEnd(clock.nowFileTime(), (int) s.buffersWritten() + 1, (int) fileLost, (int) s.buffersLost()));
            } catch (IOException e) {
                backend.recordError(e);
            }
        }
        for (SimConsumer c : ending) {
            c.end(lostTail);
        }
    }

    @Override
    public String toString() {
        return "SimSession[" + name() + "]";
    }
}
