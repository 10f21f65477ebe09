package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;
import org.etw4j.nativebindings.layout.TdhSdkFields;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The FFM backend's own rules on the stand-in: upcall failures, stale ids, close racing with notifications,
 * Win32 error mapping, views over callback memory, the TDH hook, the shutdown hook, and zero allocation per
 * write.
 */
@Tag("standin")
class FfmBackendTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private SimEtwEngine engine;
    private SimulatedBackend machine;
    private WindowsBackend backend;
    private final List<UpcallFailure> reported = new CopyOnWriteArrayList<>();
    private final List<StackTraceElement[]> reportStacks = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private String prefix;

    @BeforeEach
    void setUp(TestInfo info) {
        engine = SimEtwEngine.install();
        machine = new SimulatedBackend();
        engine.route(machine);
        backend = WindowsBackend.create(f -> {
            reported.add(f);
            reportStacks.add(Thread.currentThread().getStackTrace());
        });
        prefix = "ffm-" + info.getTestMethod().map(m -> m.getName()).orElse("t") + "-";
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        engine.noopWrites(false);
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(List.of(), WindowsBackend.orphanFailures(), "an upcall could not find its owner");
    }

    /**
     * {@code p} waiting for the enable callbacks (EnableTraceEx2's Timeout): the simulated machine, as Windows, runs
     * them on the provider process's notification thread after the call returns unless asked to wait (issue 21,
     * item 8).
     */
    private static EnableParameters waited(EnableParameters p) {
        return p.withCallbackWait(WAIT);
    }

    private SessionControl session(String suffix) {
        SessionControl s = backend.startSession(SessionConfig.realTime(prefix + suffix).build());
        cleanup.add(s::stop);
        return s;
    }

    private TraceConsumer consume(SessionControl s, RecordSink sink, List<Thread> threads) {
        TraceConsumer c = backend.openRealTime(s.name(), sink);
        cleanup.add(c);
        Thread t = new Thread(c::process, "consumer-" + s.name());
        t.setDaemon(true);
        t.start();
        threads.add(t);
        return c;
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    private static boolean inUpcall(StackTraceElement[] stack) {
        return Arrays.stream(stack).anyMatch(e -> e.getMethodName().equals("enableUpcall") || e.getMethodName().equals("recordUpcall")
                || e.getMethodName().equals("bufferUpcall"));
    }

    // ------------------------------------------------------------------ the native path is real

    @Test
    void recordsArriveAsViewsOverNativeMemoryValidOnlyDuringTheCallback() throws Exception {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-444444444444");
        ProviderRegistration reg = backend.registerProvider(id, (c, s, l, any, all, f) -> { });
        cleanup.add(reg);
        SessionControl s = session("a");
        s.enableProvider(id, waited(EnableParameters.of(Level.VERBOSE)));
        AtomicReference<RawEventRecord> kept = new AtomicReference<>();
        AtomicReference<RawEventRecord> copy = new AtomicReference<>();
        AtomicReference<ByteBuffer> firstData = new AtomicReference<>();
        AtomicReference<Throwable> staleDataAccess = new AtomicReference<>();
        CountDownLatch got = new CountDownLatch(2);
        List<Thread> threads = new ArrayList<>();
        consume(s, new RecordSink() {
            @Override
            public void onRecord(RawEventRecord r) {
                if (!r.providerId().equals(id)) {
                    return;
                }
                if (r.id() == 7) {
                    kept.set(r);
                    firstData.set(r.userData());
                    copy.set(((EventRecordView) r).copy());
                } else {
                    // same thread, next callback: the previous record's user data is gone
                    try {
                        firstData.get().get(0);
                    } catch (Throwable t) {
                        staleDataAccess.set(t);
                    }
                }
                got.countDown();
            }
        }, threads);
        long writesBefore = engine.writes();
        assertEquals(0, reg.write(EventDescriptor.of(7, Level.INFORMATIONAL, 0x1), null, null, new EventData().add(new byte[] {1, 2, 3})));
        assertEquals(0, reg.write(EventDescriptor.of(8, Level.INFORMATIONAL, 0x1), null, null, new EventData()));
        assertEquals(writesBefore + 2, engine.writes(), "the writes went through the stand-in to the engine");
        s.flush();
        assertTrue(got.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        RawEventRecord view = kept.get();
        assertInstanceOf(EventRecordView.class, view, "the sink gets the flyweight over the EVENT_RECORD");
        await("callback returned", () -> !((EventRecordView) view).isValid());
        assertThrows(IllegalStateException.class, view::id, "a view used after its callback");
        assertInstanceOf(IllegalStateException.class, staleDataAccess.get(), "user data used after its callback");
        assertThrows(RuntimeException.class, () -> firstData.get().get(0), "user data from another thread (WrongThreadException)");
        RawEventRecord c = copy.get();
        assertEquals(7, c.id());
        assertEquals(id, c.providerId());
        byte[] data = new byte[c.userDataLength()];
        c.userData().get(data);
        assertArrayEquals(new byte[] {1, 2, 3}, data);
    }

    // ------------------------------------------------------------------ upcall failures

    @Test
    void anExceptionInTheEnableCallbackIsCaughtAndReportedAfterTheDowncallReturns() {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000001");
        AtomicInteger calls = new AtomicInteger();
        ProviderRegistration reg = backend.registerProvider(id, (c, s, l, any, all, f) -> {
            calls.incrementAndGet();
            throw new IllegalStateException("thrown in the enable callback");
        });
        cleanup.add(reg);
        SessionControl s = session("a");
        s.enableProvider(id, waited(EnableParameters.of(Level.ERROR))); // the upcall throws while this downcall waits
        assertEquals(1, calls.get(), "the callback ran (on the notification thread, before the waiting EnableTraceEx2 returned)");
        assertEquals(1, reported.size(), "reported once the downcall returned");
        UpcallFailure f = reported.get(0);
        assertEquals("PENABLECALLBACK", f.upcall());
        assertEquals("thrown in the enable callback", f.error().getMessage());
        assertNotEquals(Thread.currentThread().getName(), f.threadName(), "the upcall ran on the notification thread");
        assertFalse(inUpcall(reportStacks.get(0)), "reported outside the upcall");
        assertEquals(List.of(f), backend.upcallFailures());
        s.disableProvider(id, WAIT); // the JVM and the provider still work
        assertEquals(2, calls.get());
        assertEquals(0, reg.write(EventDescriptor.of(1, Level.ERROR, 1), null, null, new EventData()));
    }

    @Test
    void anExceptionInTheRecordCallbackGoesToOnErrorAndWhatOnErrorThrowsIsReportedAfterProcessTrace() throws Exception {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000002");
        ProviderRegistration reg = backend.registerProvider(id, (c, s, l, any, all, f) -> { });
        cleanup.add(reg);
        SessionControl s = session("a");
        s.enableProvider(id, waited(EnableParameters.of(Level.VERBOSE)));
        List<Throwable> onError = new CopyOnWriteArrayList<>();
        List<Integer> delivered = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        consume(s, new RecordSink() {
            @Override
            public void onRecord(RawEventRecord r) {
                if (!r.providerId().equals(id)) {
                    return;
                }
                delivered.add(r.id());
                if (r.id() == 2) {
                    throw new IllegalStateException("thrown in onRecord");
                }
                if (r.id() == 3) {
                    throw new UnsupportedOperationException("thrown in onRecord, and onError throws too");
                }
            }

            @Override
            public void onError(Throwable error) {
                onError.add(error);
                if (error instanceof UnsupportedOperationException) {
                    throw new IllegalArgumentException("thrown in onError");
                }
            }
        }, threads);
        for (int i = 1; i <= 4; i++) {
            assertEquals(0, reg.write(EventDescriptor.of(i, Level.INFORMATIONAL, 1), null, null, new EventData()));
        }
        s.flush();
        await("4 records", () -> delivered.size() == 4);
        assertEquals(List.of(1, 2, 3, 4), delivered, "records after the failures are still delivered");
        assertEquals(2, onError.size());
        assertTrue(reported.isEmpty(), "nothing is reported while ProcessTrace runs");
        s.stop(); // the trace ends, ProcessTrace returns, the consumer thread reports
        threads.get(0).join(WAIT.toMillis());
        assertFalse(threads.get(0).isAlive());
        assertEquals(1, reported.size());
        UpcallFailure f = reported.get(0);
        assertEquals("PEVENT_RECORD_CALLBACK", f.upcall());
        assertEquals("thrown in onError", f.error().getMessage());
        assertEquals(UnsupportedOperationException.class, f.error().getSuppressed()[0].getClass());
        assertEquals(threads.get(0).getName(), f.threadName());
        assertFalse(inUpcall(reportStacks.get(0)), "reported after ProcessTrace returned, outside the upcall");
    }

    // ------------------------------------------------------------------ ids, stale ids, close races

    @Test
    void aStaleProviderIdIsIgnored() {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000003");
        AtomicInteger closedCalls = new AtomicInteger();
        FfmProviderRegistration old = (FfmProviderRegistration) backend.registerProvider(id, (c, s, l, any, all, f) -> closedCalls.incrementAndGet());
        long staleId = old.contextId();
        old.close();
        assertEquals(null, FfmProviderRegistration.REGISTRY.lookup(staleId));
        AtomicInteger liveCalls = new AtomicInteger();
        FfmProviderRegistration live = (FfmProviderRegistration) backend.registerProvider(id, (c, s, l, any, all, f) -> liveCalls.incrementAndGet());
        cleanup.add(live);
        SessionControl s = session("a");
        engine.misdirectNextNotification(staleId); // ETW calls the live stub with the closed provider's context
        s.enableProvider(id, waited(EnableParameters.of(Level.ERROR)));
        assertEquals(0, liveCalls.get(), "a notification carrying a stale id reaches nobody");
        assertEquals(0, closedCalls.get());
        s.enableProvider(id, waited(EnableParameters.of(Level.WARNING)));
        assertEquals(1, liveCalls.get(), "the right id still works");
        assertTrue(reported.isEmpty());
    }

    @Test
    void closingAProviderRacingWithNotificationsIsSafe() throws Exception {
        SessionControl s = session("a");
        int iterations = 300;
        AtomicInteger afterClose = new AtomicInteger();
        AtomicInteger notifications = new AtomicInteger();
        for (int i = 0; i < iterations; i++) {
            Guid id = new Guid(0x0f0f0f0f_2222_0000L + i, 0x1234L);
            AtomicBoolean closed = new AtomicBoolean();
            CountDownLatch notified = new CountDownLatch(1);
            ProviderRegistration reg = backend.registerProvider(id, (c, src, l, any, all, f) -> {
                notifications.incrementAndGet();
                notified.countDown();
                if (closed.get()) {
                    afterClose.incrementAndGet(); // a callback that started after close() returned
                }
            });
            CountDownLatch go = new CountDownLatch(1);
            Thread controller = new Thread(() -> {
                try {
                    go.await();
                    for (int k = 0; k < 5; k++) {
                        s.enableProvider(id, EnableParameters.of(Level.INFORMATIONAL));
                        s.disableProvider(id);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            controller.start();
            go.countDown();
            if ((i & 3) == 0) {
                // every fourth round closes while notifications are surely under way (on a loaded machine the
                // free-running rounds may all close before the controller's first enable)
                assertTrue(notified.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            } else if ((i & 1) == 0) {
                Thread.onSpinWait();
            }
            reg.close();
            closed.set(true);
            assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), reg.write(EventDescriptor.of(1, Level.ERROR, 1), null, null, new EventData()));
            controller.join(WAIT.toMillis());
            assertFalse(controller.isAlive());
        }
        assertEquals(0, afterClose.get(), "no callback ran after close() returned");
        assertTrue(notifications.get() > 0, "the race was real: notifications happened");
        assertTrue(backend.upcallFailures().isEmpty());
    }

    /**
     * A write marks its thread (WriteBuffers.enter) instead of counting itself in the gate: close() must still
     * wait for it before EventUnregister, a write nested in another on the same thread falls back to the gate,
     * and a write after close is turned back.
     */
    @Test
    void closeWaitsForAWriteThatMarkedItsThread() throws Exception {
        Guid id = Guid.parse("6f0a3e9c-5b1d-4f7e-9a41-0c2d8e7b1f11");
        ProviderRegistration reg = backend.registerProvider(id, (c, src, l, any, all, f) -> { });
        CountDownLatch marked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean nestedMarked = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            WriteBuffers b = WriteBuffers.current();
            if (b.enter(reg)) { // what FfmProviderRegistration.write does before its downcall
                nestedMarked.set(b.enter(reg)); // a second write inside the first: must use the gate
                marked.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                b.exit();
            }
        }, "marked-writer");
        writer.start();
        assertTrue(marked.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertFalse(nestedMarked.get(), "a nested write must not take over the thread's mark");
        Thread closer = new Thread(reg::close, "closer");
        closer.start();
        closer.join(300);
        assertTrue(closer.isAlive(), "close() returned while a write was still inside");
        assertEquals(0, engine.unregistrations(id), "EventUnregister ran under a write in flight");
        release.countDown();
        closer.join(WAIT.toMillis());
        writer.join(WAIT.toMillis());
        assertFalse(closer.isAlive(), "close() did not return once the write had ended");
        assertEquals(1, engine.unregistrations(id));
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), reg.write(EventDescriptor.of(1, Level.ERROR, 1), null, null, new EventData()));
    }

    /**
     * Windows' EventUnregister waits for the registration's callbacks in flight (the stand-in models it, see
     * etw_standin_callbacks.h): calling it on the callback's own thread would never return. close() there must
     * return at once, leave the registration closed, and unregister once the callback has returned.
     */
    @Test
    void aProviderMayCloseItselfInsideItsOwnCallback() throws Exception {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000004");
        AtomicReference<ProviderRegistration> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger writeAfterClose = new AtomicInteger(-1);
        self.set(backend.registerProvider(id, (c, s, l, any, all, f) -> {
            calls.incrementAndGet();
            self.get().close();
            writeAfterClose.set(self.get().write(EventDescriptor.of(1, Level.ERROR, 1), null, null, new EventData()));
        }));
        // The session is started on the simulated machine itself, not through the FFM backend: if close() hangs,
        // the hung thread keeps this machine's lock, and nothing else (cleanup, the backend's shutdown hook) may
        // then wait for it.
        SessionControl s = machine.startSession(SessionConfig.realTime(prefix + "a").build());
        int selfWaitsBefore = engine.selfUnregisterWaits();
        assertTimeoutPreemptively(WAIT, () -> s.enableProvider(id, waited(EnableParameters.of(Level.ERROR))),
                () -> "close() inside the provider's own enable callback did not return (EventUnregister waited for the"
                        + " callback itself: " + (engine.selfUnregisterWaits() - selfWaitsBefore) + " self-wait(s))");
        assertEquals(0, engine.selfUnregisterWaits() - selfWaitsBefore, "EventUnregister was called inside its own callback");
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), writeAfterClose.get(), "closed at once, before the callback returned");
        await("the deferred EventUnregister", () -> engine.unregistrations(id) == 1);
        s.disableProvider(id, WAIT);
        assertEquals(1, calls.get(), "closed during the first notification: the second reaches nobody");
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), self.get().write(EventDescriptor.of(1, Level.ERROR, 1), null, null, new EventData()));
        self.get().close(); // idempotent
        assertEquals(1, engine.unregistrations(id), "EventUnregister once");
        assertTrue(backend.upcallFailures().isEmpty());
        s.stop();
    }

    @Test
    void closingAConsumerWhileRecordsFlowIsSafe() throws Exception {
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000005");
        ProviderRegistration reg = backend.registerProvider(id, (c, s, l, any, all, f) -> { });
        cleanup.add(reg);
        SessionControl s = session("a");
        s.enableProvider(id, waited(EnableParameters.of(Level.VERBOSE)));
        for (int round = 0; round < 50; round++) {
            AtomicInteger seen = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            TraceConsumer c = backend.openRealTime(s.name(), r -> seen.incrementAndGet());
            Thread t = new Thread(c::process);
            t.start();
            threads.add(t);
            for (int i = 0; i < 50; i++) {
                reg.write(EventDescriptor.of(i, Level.INFORMATIONAL, 1), null, null, new EventData());
            }
            s.flush();
            c.close();
            c.close(); // idempotent
            t.join(WAIT.toMillis());
            assertFalse(t.isAlive(), "ProcessTrace returned after CloseTrace");
        }
        assertTrue(backend.upcallFailures().isEmpty());
        assertEquals(0, FfmConsumer.REGISTRY.size(), "every consumer left the registry");
    }

    // ------------------------------------------------------------------ Win32 errors

    @Test
    void startTraceErrorsNameTheFunctionTheCodeTheSymbolAndWhatToDo() {
        engine.failNext("StartTraceW", Win32Error.ERROR_ACCESS_DENIED.code());
        EtwException denied = assertThrows(EtwException.class, () -> session("denied"));
        assertEquals("StartTraceW", denied.function());
        assertEquals(Win32Error.ERROR_ACCESS_DENIED, denied.error());
        assertTrue(denied.getMessage().contains("ERROR_ACCESS_DENIED (5)"), denied.getMessage());
        assertTrue(denied.getMessage().contains("Run elevated"), denied.getMessage());

        SessionControl a = session("a");
        EtwException exists = assertThrows(EtwException.class, () -> backend.startSession(SessionConfig.realTime(a.name()).build()));
        assertEquals(Win32Error.ERROR_ALREADY_EXISTS, exists.error(), "the FAIL policy keeps ETW's answer");
        assertTrue(exists.getMessage().contains("ERROR_ALREADY_EXISTS (183)") && exists.getMessage().contains("ifExists"), exists.getMessage());

        // the simulated machine refuses a 65th session, as Windows does by default
        for (int i = machine.querySessions().size(); i < SimulatedBackend.MAX_SESSIONS; i++) {
            session("fill-" + i);
        }
        EtwException full = assertThrows(EtwException.class, () -> session("one-too-many"));
        assertEquals(Win32Error.ERROR_NO_SYSTEM_RESOURCES, full.error());
        assertTrue(full.getMessage().contains("ERROR_NO_SYSTEM_RESOURCES (1450)") && full.getMessage().contains("stopStale"), full.getMessage());
    }

    @Test
    void enableAndControlErrorsAreMappedToo() {
        SessionControl a = session("a");
        engine.failNext("EnableTraceEx2", Win32Error.ERROR_ACCESS_DENIED.code());
        EtwException e = assertThrows(EtwException.class, () -> a.enableProvider(Guid.parse("0f0f0f0f-1111-2222-3333-000000000006"),
                EnableParameters.of(Level.ERROR)));
        assertEquals("EnableTraceEx2", e.function());
        assertEquals(5, e.status());
        engine.failNext("ControlTraceW", Win32Error.ERROR_ACCESS_DENIED.code());
        EtwException q = assertThrows(EtwException.class, a::query);
        assertEquals("ControlTraceW", q.function());
        assertTrue(q.getMessage().contains("QUERY session"), q.getMessage());
    }

    @Test
    void openTraceReportsItsLastErrorThroughCapturedCallState() {
        EtwException missing = assertThrows(EtwException.class, () -> backend.openRealTime(prefix + "no-such-session", r -> { }));
        assertEquals("OpenTraceW", missing.function());
        assertEquals(Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND, missing.error(), "the simulator's status, through errno");
        SessionControl a = session("a");
        engine.failNext("OpenTraceW", Win32Error.ERROR_ACCESS_DENIED.code());
        EtwException denied = assertThrows(EtwException.class, () -> backend.openRealTime(a.name(), r -> { }));
        assertEquals(Win32Error.ERROR_ACCESS_DENIED, denied.error());
        assertEquals(0, FfmConsumer.REGISTRY.size(), "a failed open leaves nothing registered");
    }

    // ------------------------------------------------------------------ TDH, sessions, shutdown

    @Test
    void tdhGetEventInformationIsCalledOnTheRecordInsideTheCallback() throws Exception {
        EtwProvider p = EtwProvider.builder(prefix + "tl").backend(backend).register();
        cleanup.add(p);
        SessionControl s = session("a");
        s.enableProvider(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        TraceLoggingEvent request = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(1).int32Field("status").build();
        AtomicReference<String> name = new AtomicReference<>();
        AtomicInteger source = new AtomicInteger(-1);
        AtomicReference<EtwException> manifestStyle = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(2);
        List<Thread> threads = new ArrayList<>();
        consume(s, r -> {
            if (!r.providerId().equals(p.id())) {
                return;
            }
            EventRecordView v = (EventRecordView) r;
            try (Arena a = Arena.ofConfined()) {
                if (r.channel() == 11) {
                    MemorySegment info = Tdh.eventInformation(v, a);
                    name.set(TdhSdkFields.stringAt(info, TdhSdkFields.eventNameOffset(info)));
                    source.set(_TRACE_EVENT_INFO.DecodingSource(info));
                } else {
                    manifestStyle.set(assertThrows(EtwException.class, () -> Tdh.eventInformation(v, a)));
                }
            }
            done.countDown();
        }, threads);
        assertEquals(0, p.event(request).int32(200).write());
        p.write(EventDescriptor.of(9, Level.INFORMATIONAL, 1));
        s.flush();
        assertTrue(done.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertEquals("Request", name.get());
        assertEquals(Tdh.DECODING_SOURCE_TLG, source.get());
        assertEquals("TdhGetEventInformation", manifestStyle.get().function());
        assertEquals(SimEtwEngine.ERROR_NOT_FOUND, manifestStyle.get().status());
    }

    @Test
    void attachQueryAndStopByNameGoThroughControlTrace() {
        SessionControl a = session("a");
        SessionControl attached = backend.attachSession(a.name());
        assertEquals(a.sessionId(), attached.sessionId(), "the GUID given to StartTraceW comes back from QUERY");
        assertEquals(a.config().bufferSizeKb(), attached.config().bufferSizeKb());
        assertEquals(a.config().flushTimer(), attached.config().flushTimer());
        assertTrue(backend.querySessions().stream().anyMatch(i -> i.name().equals(a.name()) && i.sessionId().equals(a.sessionId())));
        backend.stopSession(a.name());
        assertFalse(a.isRunning());
        assertNotNull(a.query(), "the final counters of STOP remain");
        EtwException gone = assertThrows(EtwException.class, () -> backend.attachSession(a.name()));
        assertEquals(Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND, gone.error());
    }

    @Test
    void theShutdownHookStopsSessionsThisProcessStartedAndNobodyStopped() {
        SessionControl a = backend.startSession(SessionConfig.realTime(prefix + "orphan").build());
        assertTrue(WindowsBackend.runningSessionCount() >= 1);
        WindowsBackend.stopRunningSessions(); // what the hook runs at JVM exit
        assertFalse(a.isRunning());
        assertTrue(machine.querySessions().stream().noneMatch(i -> i.name().equals(a.name())), "ETW no longer runs it");
        assertEquals(0, WindowsBackend.runningSessionCount());
    }

    // ------------------------------------------------------------------ zero allocation per write

    @Test
    void writesAllocateNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        Guid id = Guid.parse("0f0f0f0f-1111-2222-3333-000000000007");
        ProviderRegistration reg = backend.registerProvider(id, (c, s, l, any, all, f) -> { });
        cleanup.add(reg);
        engine.noopWrites(true); // the stand-in returns in C: only the backend's own path is measured
        EventDescriptor d = EventDescriptor.of(1, Level.INFORMATIONAL, 0x1);
        Guid activity = Guid.parse("aaaaaaaa-0000-0000-0000-000000000001");
        byte[] payload = new byte[64];
        EventData data = new EventData().add(payload).add(payload, 8, 16).add(new byte[3], 0, 3, EventData.TYPE_EVENT_METADATA);
        int failures = 0;
        for (int i = 0; i < 300_000; i++) { // warm up: JIT the write path
            failures += reg.write(d, activity, null, data) != 0 ? 1 : 0;
        }
        // Five windows of 10_000 writes. The smallest object is 16 bytes, so any allocation per write would
        // show as >= 160_000 bytes in every window. What can show up instead is a one-off of a few KB while
        // the JIT replaces a compiled method (the MethodHandle adapters run interpreted for a moment); so: no
        // window may come near one object per write, and steady state must be exactly zero.
        long[] windows = new long[5];
        for (int w = 0; w < windows.length; w++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                failures += reg.write(d, activity, null, data) != 0 ? 1 : 0;
            }
            windows[w] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        System.out.println("[allocation] bytes allocated per window of 10000 writes through WindowsBackend (3 blocks, 83 bytes): "
                + Arrays.toString(windows));
        assertEquals(0, failures);
        assertTrue(Arrays.stream(windows).allMatch(b -> b < 16_000), "a window allocated too much: " + Arrays.toString(windows));
        assertEquals(0, Arrays.stream(windows).min().orElseThrow(), "steady state: 0 bytes for 10000 writes " + Arrays.toString(windows));
    }

    @Test
    void providerApiWritesThroughTheFfmBackendAllocateNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        EtwProvider p = EtwProvider.builder(prefix + "hot").backend(backend).register();
        cleanup.add(p);
        SessionControl s = session("a");
        s.enableProvider(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        engine.noopWrites(true);
        TraceLoggingEvent request = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(1)
                .int32Field("status").int64Field("bytes").build();
        EventDescriptor manifest = EventDescriptor.of(5, Level.INFORMATIONAL, 1);
        int failures = 0;
        for (int i = 0; i < 300_000; i++) {
            failures += p.event(request).int32(i).int64(i).write() != 0 ? 1 : 0;
            failures += p.event(manifest).int32(i).write() != 0 ? 1 : 0;
        }
        long[] windows = new long[5];
        for (int w = 0; w < windows.length; w++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 5_000; i++) {
                failures += p.event(request).int32(i).int64(i).write() != 0 ? 1 : 0;
                failures += p.event(manifest).int32(i).write() != 0 ? 1 : 0;
            }
            windows[w] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        System.out.println("[allocation] bytes allocated per window of 10000 EtwProvider writes (TraceLogging + manifest) on the FFM backend: "
                + Arrays.toString(windows));
        assertEquals(0, failures);
        assertTrue(Arrays.stream(windows).allMatch(b -> b < 16_000), "a window allocated too much: " + Arrays.toString(windows));
        assertEquals(0, Arrays.stream(windows).min().orElseThrow(), "steady state: 0 bytes " + Arrays.toString(windows));
    }
}
