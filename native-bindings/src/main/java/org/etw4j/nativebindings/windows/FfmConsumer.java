package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated.PEVENT_RECORD_CALLBACK;
import org.etw4j.nativebindings.generated.PEVENT_TRACE_BUFFER_CALLBACKW;
import org.etw4j.nativebindings.generated._EVENT_RECORD;
import org.etw4j.nativebindings.generated._EVENT_TRACE_LOGFILEW;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * A trace opened with {@code OpenTraceW} (a real-time session or an .etl file) whose events {@link #process()}
 * delivers with {@code ProcessTrace} ({@code PROCESS_TRACE_MODE_EVENT_RECORD}).
 *
 * <p>{@link #process()} runs ProcessTrace on the calling thread, which must be a platform thread (ETW calls back
 * on it for the life of the trace, so a virtual thread would stay pinned). It returns when the trace ends (the
 * session stopped, the file ended) or after {@link #close()}. Each record reaches the sink through one
 * {@link EventRecordView} valid only during the callback. Exceptions from the sink go to
 * {@link RecordSink#onError}; whatever else is thrown inside a callback is caught there (never reaching native
 * code) and reported after ProcessTrace returns.
 *
 * <p>Ownership: this object owns the trace handle and one shared arena holding the EVENT_TRACE_LOGFILEW, the
 * names and both upcall stubs; the callbacks find this object by the id in {@code EVENT_TRACE_LOGFILEW.Context}
 * (stale ids are ignored). {@link #close()} is idempotent and safe from any thread: CloseTrace, then the arena is
 * closed at once, or by the processing thread once ProcessTrace has returned, never while ETW may still call a
 * stub. Losses: a real-time consumer learns of them through RT_LostEvent records (Microsoft Learn, "RT_LostEvent
 * class": opcode 32 events, 33 buffers lost, with no count: reported as one each, and also delivered as records)
 * and through a rising {@code EVENT_TRACE_LOGFILEW.EventsLost} seen in the buffer callback (documented by
 * Microsoft as unused; the test stand-in reports exact counts there).
 */
final class FfmConsumer implements TraceConsumer {
    static final CallbackRegistry<FfmConsumer> REGISTRY = new CallbackRegistry<>();
    /** RT_LostEvent, the provider of the events ETW inserts when a real-time session lost events or buffers. */
    static final Guid LOST_EVENT_GUID = org.etw4j.controller.KernelEventGroup.LOST_EVENT.guid();
    static final int RT_LOST_EVENT = 32;
    static final int RT_LOST_BUFFER = 33;
    private static final long USER_CONTEXT = _EVENT_RECORD.UserContext$offset();
    private static final long LOGFILE_CONTEXT = _EVENT_TRACE_LOGFILEW.Context$offset();

    private final WindowsBackend backend;
    private final RecordSink sink;
    private final String source;
    private final long id;
    private final Arena arena = Arena.ofShared();
    private final EventRecordView view = new EventRecordView();
    private final Object lock = new Object();
    private long traceHandle;
    private long eventsLostSeen;
    private boolean processing;
    private boolean processed;
    private boolean closed;
    private boolean released;
    private volatile boolean closing;

    private FfmConsumer(WindowsBackend backend, RecordSink sink, String source) {
        this.backend = backend;
        this.sink = sink;
        this.source = source;
        this.id = REGISTRY.add(this);
    }

    /** {@code OpenTraceW} on the real-time session {@code sessionName}. */
    static FfmConsumer openRealTime(WindowsBackend backend, String sessionName, RecordSink sink) {
        return open(backend, sink, "session '" + sessionName + "'", sessionName, null,
                EtwNative.PROCESS_TRACE_MODE_REAL_TIME() | EtwNative.PROCESS_TRACE_MODE_EVENT_RECORD());
    }

    /** {@code OpenTraceW} on the .etl file {@code file}. */
    static FfmConsumer openFile(WindowsBackend backend, Path file, RecordSink sink) {
        String name = file.toAbsolutePath().toString();
        return open(backend, sink, "file " + name, null, name, EtwNative.PROCESS_TRACE_MODE_EVENT_RECORD());
    }

    private static FfmConsumer open(WindowsBackend backend, RecordSink sink, String source, String loggerName,
                                    String logFileName, int mode) {
        java.util.Objects.requireNonNull(sink, "sink");
        FfmConsumer c = new FfmConsumer(backend, sink, source);
        OpenTrace.Result r;
        try {
            MemorySegment logfile = c.arena.allocate(_EVENT_TRACE_LOGFILEW.layout());
            logfile.fill((byte) 0);
            if (loggerName != null) {
                _EVENT_TRACE_LOGFILEW.LoggerName(logfile, c.arena.allocateFrom(loggerName, StandardCharsets.UTF_16LE));
            }
            if (logFileName != null) {
                _EVENT_TRACE_LOGFILEW.LogFileName(logfile, c.arena.allocateFrom(logFileName, StandardCharsets.UTF_16LE));
            }
            _EVENT_TRACE_LOGFILEW.ProcessTraceMode(logfile, mode);
            _EVENT_TRACE_LOGFILEW.EventRecordCallback(logfile, PEVENT_RECORD_CALLBACK.allocate(FfmConsumer::recordUpcall, c.arena));
            _EVENT_TRACE_LOGFILEW.BufferCallback(logfile, PEVENT_TRACE_BUFFER_CALLBACKW.allocate(FfmConsumer::bufferUpcall, c.arena));
            _EVENT_TRACE_LOGFILEW.Context(logfile, MemorySegment.ofAddress(c.id));
            r = OpenTrace.open(logfile);
        } catch (RuntimeException | Error e) {
            c.release();
            throw e;
        }
        if (r.failed()) {
            c.release();
            throw Win32Errors.failure("OpenTraceW", r.lastError(), source);
        }
        c.traceHandle = r.handle();
        return c;
    }

    /** The event record upcall: finds the consumer by UserContext (the logfile's Context). Never throws. */
    private static void recordUpcall(MemorySegment eventRecord) {
        try {
            MemorySegment r = eventRecord.reinterpret(EventRecordView.RECORD_BYTES);
            FfmConsumer c = REGISTRY.lookup(r.get(ValueLayout.JAVA_LONG, USER_CONTEXT));
            if (c != null) {
                c.onRecord(r);
            }
        } catch (Throwable t) {
            WindowsBackend.recordOrphanFailure("PEVENT_RECORD_CALLBACK", t);
        }
    }

    /**
     * The buffer upcall: TRUE to go on (after close too: CloseTrace's pending close ends ProcessTrace once the
     * buffers it holds are processed; FALSE here would drop them uncounted). Never throws.
     */
    private static int bufferUpcall(MemorySegment logfile) {
        try {
            MemorySegment l = logfile.reinterpret(_EVENT_TRACE_LOGFILEW.layout().byteSize());
            FfmConsumer c = REGISTRY.lookup(l.get(ValueLayout.JAVA_LONG, LOGFILE_CONTEXT));
            return c == null ? 0 : c.onBuffer(l);
        } catch (Throwable t) {
            WindowsBackend.recordOrphanFailure("PEVENT_TRACE_BUFFER_CALLBACKW", t);
            return 1;
        }
    }

    private void onRecord(MemorySegment eventRecord) {
        // After CloseTrace, records still arrive until ProcessTrace returns (MS Learn, CloseTrace function,
        // ERROR_CTX_CLOSE_PENDING: it "will stop after it has processed all real-time events in its buffers"):
        // they go to the sink, which counts what it no longer wants (issue 21, item 8; before, they were
        // dropped here without a count).
        view.attach(eventRecord);
        try {
            if (view.providerIdMsb() == LOST_EVENT_GUID.mostSignificantBits()
                    && view.providerIdLsb() == LOST_EVENT_GUID.leastSignificantBits()) {
                int op = view.opcode();
                if (op == RT_LOST_EVENT) {
                    sink.onLost(1, 0);
                } else if (op == RT_LOST_BUFFER) {
                    sink.onLost(0, 1);
                }
            }
            sink.onRecord(view);
        } catch (Throwable t) {
            handOver(t);
        } finally {
            view.detach();
        }
    }

    private int onBuffer(MemorySegment logfile) {
        try {
            long lost = Integer.toUnsignedLong(_EVENT_TRACE_LOGFILEW.EventsLost(logfile));
            if (lost > eventsLostSeen) {
                long delta = lost - eventsLostSeen;
                eventsLostSeen = lost;
                sink.onLost(delta, 0);
            }
            sink.onBufferDelivered(); // ETW calls the BufferCallback after each buffer's events (MS Learn)
        } catch (Throwable t) {
            handOver(t);
        }
        return 1;
    }

    /** A sink method threw: tell the sink; if that throws too, keep it for the report after ProcessTrace. */
    private void handOver(Throwable t) {
        try {
            sink.onError(t);
        } catch (Throwable again) {
            again.addSuppressed(t);
            backend.failures().record("PEVENT_RECORD_CALLBACK", source, again);
        }
    }

    @Override
    public void process() {
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("ProcessTrace blocks for the life of the trace and ETW calls back on its"
                    + " thread: call process() on a platform thread");
        }
        synchronized (lock) {
            if (processed) {
                throw new IllegalStateException("ProcessTrace: this trace was already processed");
            }
            processed = true;
            if (closed) {
                return;
            }
            processing = true;
        }
        int status;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment handles = call.allocateFrom(ValueLayout.JAVA_LONG, traceHandle);
            status = EtwNative.ProcessTrace(handles, 1, MemorySegment.NULL, MemorySegment.NULL);
        } finally {
            synchronized (lock) {
                processing = false;
                if (closed) {
                    release(); // close() ran while ETW could still call back: the arena goes now
                }
            }
            backend.failures().reportPending();
        }
        if (status != Win32Errors.ERROR_SUCCESS && status != Win32Errors.ERROR_CANCELLED && !closing) {
            throw Win32Errors.failure("ProcessTrace", status, source);
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            closing = true;
        }
        // The registry entry stays until release(): callbacks of the buffers ProcessTrace still processes find it.
        int status = EtwNative.CloseTrace(traceHandle);
        synchronized (lock) {
            if (!processing) {
                release();
            }
        }
        if (status != Win32Errors.ERROR_SUCCESS && status != Win32Errors.ERROR_CTX_CLOSE_PENDING) {
            System.getLogger("org.etw4j.nativebindings.windows").log(System.Logger.Level.WARNING,
                    Win32Errors.failure("CloseTrace", status, source).getMessage());
        }
    }

    /** Frees the arena (once); callers guarantee ETW no longer calls the stubs. */
    private void release() {
        synchronized (lock) {
            if (released) {
                return;
            }
            released = true;
            closing = true;
        }
        REGISTRY.remove(id);
        arena.close();
    }

    @Override
    public String toString() {
        return "FfmConsumer[" + source + ", context " + id + "]";
    }
}
