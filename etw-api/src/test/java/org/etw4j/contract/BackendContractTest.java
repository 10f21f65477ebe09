package org.etw4j.contract;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.PayloadPredicate;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.LogfileHeader;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.ControlCode;
import org.etw4j.provider.EnableNotification;
import org.etw4j.provider.EventData;
import org.etw4j.provider.EtwProvider;
import org.etw4j.spi.EtwBackend;
import org.etw4j.provider.FilterData;
import org.etw4j.tracelogging.InType;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.etw4j.tracelogging.TraceLoggingSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The backend contract: every rule of seeds 000 (EnableCallback), 001 (EVENT_DESCRIPTOR), 002 (EventWrite) and
 * 003 (EventRecordCallback) that a backend must follow, stated once. Subclasses supply a fresh, isolated backend
 * per test; the same suite runs against the simulated backend, the JNA providers over simulated sessions, and the
 * Windows FFM backend (over the stand-in here, over real ETW on Windows).
 *
 * <p>Which assertions real Windows can make: all of them, except the session event counts Windows does not report
 * (events accepted, delivered, pending: {@link SessionStatistics#reportsEventCounts()}). Those are asserted only
 * when {@link #sessionsReportEventCounts()} says the backend's sessions are simulated; a Windows backend is held to
 * what {@code EVENT_TRACE_PROPERTIES} carries instead (EventsLost, BuffersWritten, LogBuffersLost,
 * RealTimeBuffersLost, NumberOfBuffers, FreeBuffers) and must report the others as not reported. Tests that
 * touch counters say in a comment which of their assertions Windows can make. Level 0 on the session side is
 * inferred from reports, not documented (see {@link #levelZeroEnablesEveryLevelForTheProviderAndTheSession}).
 * "The state is published before enable returns" holds on Windows only for an enable that waits for callbacks
 * ({@link EnableParameters#callbackWait}); by default EnableTraceEx2 is asynchronous there (Timeout 0), and the
 * backends here deliver before returning either way.
 */
public abstract class BackendContractTest {
    protected static final Duration WAIT = Duration.ofSeconds(10);
    protected EtwBackend backend;
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private String prefix;

    /** A new backend, isolated from other tests. */
    protected abstract EtwBackend newBackend();

    /**
     * Whether this backend's sessions count events accepted, delivered and pending (simulated sessions do;
     * Windows does not report them, so the Windows backend answers false and is checked for not claiming them).
     */
    protected boolean sessionsReportEventCounts() {
        return true;
    }

    /**
     * The simulator-only counters: checked by {@code simulatorOnly} where sessions report them, else asserted to be
     * reported as absent (-1), as Windows gives them.
     */
    protected void eventCounts(SessionStatistics s, java.util.function.Consumer<SessionStatistics> simulatorOnly) {
        if (sessionsReportEventCounts()) {
            assertTrue(s.reportsEventCounts(), "simulated sessions count accepted, delivered and pending events: " + s);
            simulatorOnly.accept(s);
        } else {
            assertFalse(s.reportsEventCounts(), "Windows does not report accepted/delivered/pending: " + s);
            assertEquals(List.of(SessionStatistics.NOT_REPORTED, SessionStatistics.NOT_REPORTED, SessionStatistics.NOT_REPORTED),
                    List.of(s.eventsAccepted(), s.eventsDelivered(), s.eventsPending()));
        }
    }

    @BeforeEach
    void setUp(TestInfo info) {
        backend = newBackend();
        prefix = "etw4j-contract-" + info.getTestMethod().map(m -> m.getName()).orElse("t") + "-";
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    // ------------------------------------------------------------------ helpers

    protected String sessionName(String suffix) {
        return prefix + suffix;
    }

    protected TraceSession session(String suffix) {
        return session(SessionConfig.realTime(sessionName(suffix)).build());
    }

    protected TraceSession session(SessionConfig config) {
        TraceSession s = TraceSession.start(config, backend);
        cleanup.add(s);
        return s;
    }

    protected EtwProvider provider(String name, List<EnableNotification> notifications) {
        EtwProvider.Builder b = EtwProvider.builder(prefix + name).backend(backend);
        if (notifications != null) {
            b.onEnable((p, n) -> notifications.add(n));
        }
        EtwProvider p = b.register();
        cleanup.add(p);
        return p;
    }

    protected RecordingConsumer consume(TraceSession s) {
        RecordingConsumer c = new RecordingConsumer(backend, s.name());
        cleanup.add(c);
        return c;
    }

    /**
     * The parameters of an enable after which the test writes or reads the provider's state: it waits for the
     * callbacks, as a Windows program must (EnableTraceEx2 returns at once with Timeout 0, the default; the callbacks
     * run on a notification thread of the provider's process). Issue 21, item 8.
     */
    protected static EnableParameters waited(EnableParameters p) {
        return p.withCallbackWait(WAIT);
    }

    /** A session "a" without flush timer (buffers go only when full, flushed or stopped) enabling {@code p}, waited. */
    private TraceSession enabledWithoutFlushTimer(EtwProvider p) {
        return session(SessionConfig.realTime(sessionName("a")).flushTimer(Duration.ZERO).build())
                .enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
    }

    private static Predicate<RecordedEvent> from(EtwProvider p) {
        return e -> e.providerId().equals(p.id());
    }

    private static EventDescriptor event(int id, Level level, long keyword) {
        return EventDescriptor.of(id, level, keyword);
    }

    private static void awaitCondition(String what, java.util.function.BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    // ------------------------------------------------------------------ seed 000: EnableCallback

    @Test
    void seed000_notificationLevelIsTheMaximumOverSessions() {
        EtwProvider p = provider("p", null);
        session("a").enable(p.id(), waited(EnableParameters.of(Level.WARNING)));
        session("b").enable(p.id(), waited(EnableParameters.of(Level.CRITICAL)));
        // "si la session A a activé ce fournisseur pour les événements d'avertissement (niveau 3) et que la session B
        // active le fournisseur pour les événements critiques (niveau 1), la valeur Niveau pour le rappel sera 3"
        assertEquals(3, p.enableState().level());
    }

    @Test
    void seed000_matchAnyKeywordIsTheOrOverSessions() {
        EtwProvider p = provider("p", null);
        session("a").enable(p.id(), waited(EnableParameters.builder().matchAnyKeyword(0x1).build()));
        session("b").enable(p.id(), waited(EnableParameters.builder().matchAnyKeyword(0x6).build()));
        assertEquals(0x7, p.enableState().matchAnyKeyword());
    }

    @Test
    void seed000_matchAllKeywordIsTheAndOverSessions() {
        EtwProvider p = provider("p", null);
        session("a").enable(p.id(), waited(EnableParameters.builder().matchAllKeyword(0x3).build()));
        session("b").enable(p.id(), waited(EnableParameters.builder().matchAllKeyword(0x6).build()));
        assertEquals(0x2, p.enableState().matchAllKeyword());
    }

    @Test
    void seed000_disableByOneOfTwoSessionsStillNotifiesEnable() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.INFORMATIONAL)));
        session("b").enable(p.id(), waited(EnableParameters.of(Level.ERROR)));
        a.disable(p.id());
        awaitCondition("3 notifications", () -> seen.size() == 3);
        // "le fournisseur reçoit une notification avec IsEnabled défini sur EVENT_CONTROL_CODE_ENABLE_PROVIDER,
        // car le fournisseur est toujours activé par l'autre session"
        EnableNotification last = seen.get(2);
        assertEquals(ControlCode.ENABLE_PROVIDER, last.controlCode());
        assertEquals(Level.ERROR.value(), last.level());
        assertTrue(p.isEnabled());
    }

    @Test
    void seed000_disableOnlyWhenNoSessionEnables() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.INFORMATIONAL)));
        TraceSession b = session("b").enable(p.id(), waited(EnableParameters.of(Level.ERROR)));
        a.disable(p.id()); // disabling does not wait for the callbacks (Windows: a notification thread)
        awaitCondition("3 notifications", () -> seen.size() == 3);
        assertTrue(p.isEnabled());
        b.disable(p.id());
        awaitCondition("4 notifications", () -> seen.size() == 4);
        assertFalse(p.isEnabled());
        assertEquals(ControlCode.DISABLE_PROVIDER, seen.get(3).controlCode());
        assertFalse(p.isEnabled(Level.CRITICAL.value(), 0));
    }

    @Test
    void seed000_providerRegisteredAfterEnableIsNotifiedAtRegistrationWithNullSourceId() throws Exception {
        Guid id = org.etw4j.tracelogging.ProviderIds.fromName(sessionName("late-provider"));
        session("a").enable(id, waited(EnableParameters.builder().level(Level.WARNING).matchAnyKeyword(0xF0).build()));
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = EtwProvider.builder(sessionName("late-provider")).backend(backend).onEnable((pr, n) -> seen.add(n)).register();
        cleanup.add(p);
        assertTrue(p.isEnabled(), "enabled as soon as register() returns");
        assertEquals(3, p.enableState().level());
        assertEquals(0xF0, p.enableState().matchAnyKeyword());
        awaitCondition("1 notification", () -> seen.size() == 1);
        assertEquals(Guid.NULL, seen.get(0).sourceId(), "seed 000: SourceId is GUID_NULL when enabled before the provider started");
    }

    @Test
    void seed000_sourceIdComesFromTheEnableCall() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        Guid source = Guid.parse("11111111-2222-3333-4444-555555555555");
        session("a").enable(p.id(), waited(EnableParameters.builder().sourceId(source).build()));
        TraceSession b = session("b");
        b.enable(p.id(), waited(EnableParameters.of(Level.ERROR)));
        awaitCondition("2 notifications", () -> seen.size() == 2);
        assertEquals(source, seen.get(0).sourceId());
        assertEquals(b.sessionId(), seen.get(1).sourceId(), "without a SourceId the session's own GUID is used");
    }

    @Test
    void seed000_captureStateNeverDisablesTheProvider() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.INFORMATIONAL, 0x2)));
        a.captureState(p.id(), EnableParameters.of(Level.VERBOSE));
        awaitCondition("2 notifications", () -> seen.size() == 2);
        assertEquals(ControlCode.CAPTURE_STATE, seen.get(1).controlCode());
        assertTrue(p.isEnabled());
        assertEquals(Level.INFORMATIONAL.value(), p.enableState().level(), "CAPTURE_STATE leaves the recorded state alone");
        assertEquals(0x2, p.enableState().matchAnyKeyword());
    }

    @Test
    void seed000_captureStateOnADisabledProviderKeepsItDisabled() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        session("a").captureState(p.id(), EnableParameters.of(Level.VERBOSE));
        awaitCondition("1 notification", () -> seen.size() == 1);
        assertEquals(ControlCode.CAPTURE_STATE, seen.get(0).controlCode());
        assertFalse(p.isEnabled());
    }

    @Test
    void seed000_filterDataHoldsOneFilterFromEachSessionThatGaveOne() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        session("a").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.Custom.utf8(EventFilter.TYPE_SCHEMATIZED, "from-a")).build()));
        session("b").enable(p.id(), waited(EnableParameters.of(Level.ERROR)));
        session("c").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.Custom.utf8(EventFilter.TYPE_SCHEMATIZED, "from-c")).build()));
        awaitCondition("3 notifications", () -> seen.size() == 3);
        List<FilterData> last = seen.get(2).filters();
        assertEquals(2, last.size(), "sessions a and c gave filter data, b did not");
        Set<String> texts = Set.of(new String(last.get(0).data()), new String(last.get(1).data()));
        assertEquals(Set.of("from-a", "from-c"), texts);
    }

    @Test
    void seed000_listenersNeverRunOnTheNotifyingThread() throws Exception {
        AtomicReference<Thread> listenerThread = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch called = new CountDownLatch(1);
        EtwProvider p = EtwProvider.builder(sessionName("slow-listener")).backend(backend).onEnable((pr, n) -> {
            listenerThread.set(Thread.currentThread());
            called.countDown();
            try {
                release.await(); // a listener that blocks must not block the controller (seed 000)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).register();
        cleanup.add(p);
        long t0 = System.nanoTime();
        session("a").enable(p.id(), waited(EnableParameters.of(Level.INFORMATIONAL)));
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(p.isEnabled(), "the state is published before enable returns");
        assertTrue(called.await(5, TimeUnit.SECONDS));
        assertNotSame(Thread.currentThread(), listenerThread.get());
        assertTrue(elapsedMs < 4000, "enable returned while the listener was still blocked");
        release.countDown();
    }

    @Test
    void seed000_stoppingASessionUpdatesItsProviders() throws Exception {
        List<EnableNotification> seen = new CopyOnWriteArrayList<>();
        EtwProvider p = provider("p", seen);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        TraceSession b = session("b").enable(p.id(), waited(EnableParameters.of(Level.ERROR)));
        a.stop(); // the providers are told on their notification thread (Windows), not before stop returns
        awaitCondition("3 notifications", () -> seen.size() == 3);
        assertEquals(Level.ERROR.value(), p.enableState().level(), "level drops to what the remaining session wants");
        b.stop();
        awaitCondition("4 notifications", () -> seen.size() == 4);
        assertFalse(p.isEnabled());
        assertEquals(ControlCode.DISABLE_PROVIDER, seen.get(3).controlCode());
    }

    @Test
    void seed000_isEnabledAppliesLevelAnyAndAllKeywordRules() {
        EtwProvider p = provider("p", null);
        session("a").enable(p.id(), waited(EnableParameters.builder().level(Level.WARNING).matchAnyKeyword(0x0F).matchAllKeyword(0x03).build()));
        assertTrue(p.isEnabled(Level.WARNING.value(), 0x03));
        assertFalse(p.isEnabled(Level.INFORMATIONAL.value(), 0x03), "eventDescriptor.Level <= recorded.Level");
        assertFalse(p.isEnabled(Level.ERROR.value(), 0x10), "keyword shares no bit with MatchAnyKeyword");
        assertFalse(p.isEnabled(Level.ERROR.value(), 0x01), "keyword lacks a MatchAllKeyword bit");
        assertTrue(p.isEnabled(Level.ERROR.value(), 0), "keyword 0 passes the keyword rules");
        assertTrue(p.isEnabled(0, 0x07), "level 0 passes the level rule");
    }

    // ------------------------------------------------------------------ seed 001: EVENT_DESCRIPTOR

    @Test
    void seed001_eachSessionAcceptsOnlyEventsPassingItsOwnLevelAndKeywordFilter() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.ERROR, 0x1)));
        TraceSession b = session("b").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE, 0x2)));
        RecordingConsumer ca = consume(a);
        RecordingConsumer cb = consume(b);
        p.write(event(1, Level.ERROR, 0x1));       // a only
        p.write(event(2, Level.VERBOSE, 0x2));     // b only
        p.write(event(3, Level.INFORMATIONAL, 0x1)); // nobody: a wants ERROR or less, b wants keyword 2
        p.write(event(4, Level.CRITICAL, 0x3));    // both
        assertTrue(p.isEnabled(Level.INFORMATIONAL.value(), 0x1), "the provider-side union says yes for event 3...");
        a.flush();
        b.flush();
        assertEquals(List.of(1, 4), ca.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList());
        assertEquals(List.of(2, 4), cb.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList(), "...but no session gets it");
    }

    @Test
    void seed001_levelZeroEventBypassesLevelFiltering() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.CRITICAL)));
        RecordingConsumer c = consume(a);
        p.write(new EventDescriptor(7, 0, 0, Level.LOG_ALWAYS.value(), 0, 0, 0x1));
        p.write(event(8, Level.ERROR, 0x1));
        a.flush();
        assertEquals(List.of(7), c.await(from(p), 1, WAIT).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void seed001_keywordZeroEventBypassesKeywordFiltering() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder().matchAnyKeyword(0x4).matchAllKeyword(0x4).build()));
        RecordingConsumer c = consume(a);
        p.write(event(1, Level.INFORMATIONAL, 0));
        p.write(event(2, Level.INFORMATIONAL, 0x1));
        p.write(event(3, Level.INFORMATIONAL, 0x4));
        a.flush();
        assertEquals(List.of(1, 3), c.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void seed001_ignoreKeyword0DropsKeywordZeroEventsInThatSessionOnly() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder().property(EnableProperty.IGNORE_KEYWORD_0).build()));
        TraceSession b = session("b").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer ca = consume(a);
        RecordingConsumer cb = consume(b);
        p.write(event(1, Level.INFORMATIONAL, 0));
        p.write(event(2, Level.INFORMATIONAL, 0x8));
        a.flush();
        b.flush();
        assertEquals(List.of(2), ca.await(from(p), 1, WAIT).stream().map(RecordedEvent::id).toList());
        assertEquals(List.of(1, 2), cb.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void seed001_descriptorFieldsArriveUnchanged() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder().level(255).build()));
        RecordingConsumer c = consume(a);
        EventDescriptor d = new EventDescriptor(0xFFFF, 0xFF, 16, 200, 239, 0xFFFF, 0x0000_8000_0000_0001L);
        p.write(d);
        a.flush();
        RecordedEvent e = c.await(from(p), 1, WAIT).get(0);
        assertEquals(d, new EventDescriptor(e.id(), e.version(), e.channel(), e.level(), e.opcode(), e.task(), e.keyword()));
    }

    @Test
    void seed001_startAndStopOpcodesBracketAnActivity() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        Guid parent = p.activityIds().create();
        Guid before = p.activityIds().set(parent);
        Guid activity;
        try (ActivityScope scope = p.startActivity(event(10, Level.INFORMATIONAL, 0x1))) {
            activity = scope.activityId();
            assertEquals(activity, p.activityIds().get(), "inside the scope the thread carries the new id");
            p.write(event(11, Level.INFORMATIONAL, 0x1));
        }
        assertEquals(parent, p.activityIds().get(), "the previous id is restored");
        p.activityIds().set(before);
        a.flush();
        List<RecordedEvent> got = c.await(from(p), 3, WAIT);
        assertEquals(List.of(Opcode.START.value(), Opcode.INFO.value(), Opcode.STOP.value()), got.stream().map(RecordedEvent::opcode).toList());
        assertEquals(activity, got.get(0).activityId());
        assertEquals(parent, got.get(0).related(), "start event: related activity id = the parent");
        assertEquals(activity, got.get(1).activityId());
        assertEquals(activity, got.get(2).activityId());
        assertNull(got.get(2).related());
        assertEquals(got.get(0).level(), got.get(2).level(), "stop has the start's level and keyword");
        assertNotEquals(parent, activity);
    }

    @Test
    void seed001_traceLoggingEventsUseChannel11AndCarryTheirSchema() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        TraceLoggingEvent tl = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(0x1)
                .int32Field("status").stringField("path").doubleField("ms").build();
        assertEquals(0, p.event(tl).int32(200).string("/index").float64(1.5).write());
        a.flush();
        RecordedEvent e = c.await(from(p), 1, WAIT).get(0);
        assertEquals(EventDescriptor.CHANNEL_TRACELOGGING, e.channel());
        byte[] schema = e.ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL);
        assertNotNull(schema, "EVENT_SCHEMA_TL extended item");
        assertArrayEquals(tl.metadata(), schema);
        assertNotNull(e.ext(EventHeaderLayout.EXT_PROV_TRAITS), "PROV_TRAITS extended item");
        var fields = TraceLoggingSchema.parse(schema).decode(ByteBuffer.wrap(e.userData()).order(ByteOrder.LITTLE_ENDIAN), 8);
        assertEquals(200, ((Number) fields.get(0).value()).intValue());
        assertEquals("/index", fields.get(1).value());
        assertEquals(1.5, ((Number) fields.get(2).value()).doubleValue());
    }

    // ------------------------------------------------------------------ seed 002: EventWrite

    @Test
    void seed002_dataBlocksAreConcatenatedInOrderWithoutPadding() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        EventData data = new EventData().add(new byte[] {1}).add(new byte[] {2, 3, 4}).add(new byte[0]).add(new byte[] {9, 8, 7, 6, 5}, 1, 3);
        assertEquals(0, p.write(event(1, Level.INFORMATIONAL, 0x1), data));
        a.flush();
        assertArrayEquals(new byte[] {1, 2, 3, 4, 8, 7, 6}, c.await(from(p), 1, WAIT).get(0).userData());
    }

    @Test
    void seed002_moreThan128DataBlocksIsInvalidParameter() {
        EtwProvider p = provider("p", null);
        session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        EventData ok = new EventData();
        EventData tooMany = new EventData();
        for (int i = 0; i < 129; i++) {
            tooMany.add(new byte[] {(byte) i});
            if (i < 128) {
                ok.add(new byte[] {(byte) i});
            }
        }
        assertEquals(0, p.write(event(1, Level.INFORMATIONAL, 1), ok));
        assertEquals(Win32Error.ERROR_INVALID_PARAMETER.code(), p.write(event(1, Level.INFORMATIONAL, 1), tooMany));
        assertEquals(1, p.statistics().failures(Win32Error.ERROR_INVALID_PARAMETER.code()));
    }

    @Test
    void seed002_writeAfterCloseIsInvalidHandleAndNeverThrows() {
        List<Integer> reported = new CopyOnWriteArrayList<>();
        EtwProvider p = EtwProvider.builder(sessionName("closed")).backend(backend).onWriteError((pr, d, st) -> reported.add(st)).register();
        session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        p.close();
        p.close(); // idempotent
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), p.write(event(1, Level.INFORMATIONAL, 1)));
        assertEquals(List.of(Win32Error.ERROR_INVALID_HANDLE.code()), reported);
        assertFalse(p.isEnabled());
    }

    @Test
    void seed002_eventLargerThan64KbIsArithmeticOverflow() {
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).bufferSizeKb(1024).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        int max = EventHeaderLayout.MAX_EVENT_SIZE - EventHeaderLayout.HEADER_SIZE;
        assertEquals(0, p.write(event(1, Level.INFORMATIONAL, 1), new EventData().add(new byte[max])), "exactly 64 KB - header fits");
        assertEquals(Win32Error.ERROR_ARITHMETIC_OVERFLOW.code(), p.write(event(1, Level.INFORMATIONAL, 1), new EventData().add(new byte[max + 1])));
    }

    /**
     * An enable level of 0 means "every level", on both sides. Provider side: Windows' provider frameworks
     * (TraceLoggingDynamic.h, mc.exe-generated McGenLevelKeywordEnabled; see EnableStateSeedFormulaTest). Session
     * side: MS Learn gives level 0 no meaning of its own (EnableTraceEx2 defines levels 1-5; EnableTrace says the
     * value "should be in the range 1 to 255"), but Windows records events of every level for a session enabled at 0:
     * microsoft/perfview issue 598 (2025-07-30) reports Microsoft-Windows-DotNETRuntime enabled at level 0 still
     * recording its threading events, which level 1 stopped; TraceEvent documents TraceEventLevel.Always (0) as
     * "Always log the event". Real Windows can make these assertions (inferred from those reports; RealEtwTest
     * checks the session side on Windows).
     */
    @Test
    void levelZeroEnablesEveryLevelForTheProviderAndTheSession() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.LOG_ALWAYS, 0x1)));
        assertEquals(0, p.enableState().level(), "the callback received level 0");
        assertTrue(p.isEnabled(Level.VERBOSE.value(), 0x1));
        assertTrue(p.isEnabled(255, 0x1));
        assertFalse(p.isEnabled(Level.VERBOSE.value(), 0x2), "the keyword rules still apply");
        RecordingConsumer c = consume(a);
        p.write(event(1, Level.VERBOSE, 0x1));
        p.write(event(2, Level.CRITICAL, 0x1));
        p.write(new EventDescriptor(3, 0, 0, 200, 0, 0, 0x1));
        p.write(event(4, Level.VERBOSE, 0x2)); // keyword outside MatchAny: nobody
        a.flush();
        assertEquals(List.of(1, 2, 3), c.await(from(p), 3, WAIT).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void seed002_eventThatCannotFitASessionBufferIsMoreData() {
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).bufferSizeKb(4).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        assertEquals(Win32Error.ERROR_MORE_DATA.code(), p.write(event(1, Level.INFORMATIONAL, 1), new EventData().add(new byte[5000])));
        assertEquals(0, p.write(event(1, Level.INFORMATIONAL, 1), new EventData().add(new byte[3000])));
        SessionStatistics s = a.statistics();
        assertEquals(1, s.eventsLost(), "an event no buffer can hold is counted as lost");
    }

    @Test
    void seed002_whenNoBufferIsFreeEventsAreLostAndCountedAsNotEnoughMemory() {
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).bufferSizeKb(1).buffers(2, 2).flushTimer(Duration.ZERO).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        // no consumer: the buffers fill up and stay (seed 003: kept for the first consumer), then events are lost
        int failures = 0;
        for (int i = 0; i < 200; i++) {
            int st = p.write(event(1, Level.INFORMATIONAL, 1), new EventData().add(new byte[100]));
            if (st != 0) {
                assertEquals(Win32Error.ERROR_NOT_ENOUGH_MEMORY.code(), st);
                failures++;
            }
        }
        SessionStatistics s = a.statistics();
        // Windows can make these: EventsLost is in EVENT_TRACE_PROPERTIES, the failures are EventWrite's answers.
        assertTrue(failures > 0);
        assertEquals(failures, s.eventsLost());
        assertEquals(failures, p.statistics().failures(Win32Error.ERROR_NOT_ENOUGH_MEMORY.code()));
        assertTrue(s.numberOfBuffers() >= 2 && s.freeBuffers() <= s.numberOfBuffers(), s.toString());
        // Simulator only: Windows counts no accepted, delivered or pending events.
        eventCounts(s, st -> {
            assertEquals(200, st.eventsAccepted());
            assertEquals(st.eventsAccepted(), st.eventsDelivered() + st.eventsLost() + st.eventsPending());
        });
    }

    @Test
    void seed002_withNoSessionAWriteDoesNothingAndSucceeds() {
        EtwProvider p = provider("p", null);
        assertFalse(p.isEnabled());
        assertEquals(0, p.write(event(1, Level.CRITICAL, 1), new EventData().add(new byte[10])));
        assertEquals(0, p.statistics().writes(), "nothing reached the backend");
        assertEquals(1, p.statistics().skipped());
    }

    @Test
    void seed002_eventWriteUsesTheThreadActivityIdAndNoRelatedId() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        Guid id = p.activityIds().create();
        Guid previous = p.activityIds().set(id);
        try {
            p.write(event(1, Level.INFORMATIONAL, 1));
        } finally {
            p.activityIds().set(previous);
        }
        p.write(event(2, Level.INFORMATIONAL, 1));
        a.flush();
        List<RecordedEvent> got = c.await(from(p), 2, WAIT);
        assertEquals(id, got.get(0).activityId());
        assertNull(got.get(0).related());
        assertEquals(previous, got.get(1).activityId());
    }

    @Test
    void seed002_eventWriteTransferCarriesExplicitActivityAndRelatedIds() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        Guid act = Guid.parse("aaaaaaaa-0000-0000-0000-000000000001");
        Guid rel = Guid.parse("bbbbbbbb-0000-0000-0000-000000000002");
        p.write(event(1, Level.INFORMATIONAL, 1), act, rel, new EventData());
        a.flush();
        RecordedEvent e = c.await(from(p), 1, WAIT).get(0);
        assertEquals(act, e.activityId());
        assertEquals(rel, e.related());
    }

    // ------------------------------------------------------------------ seed 003: EventRecordCallback

    @Test
    void seed003_firstEventIsTheSyntheticTraceHeaderEvent() {
        TraceSession a = session("a");
        RecordingConsumer c = consume(a);
        RecordedEvent first = c.await(e -> true, 1, WAIT).get(0);
        assertEquals(Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3"), first.providerId(), "EventTraceGuid");
        assertEquals(0, first.opcode());
        LogfileHeader h = LogfileHeader.decode(ByteBuffer.wrap(first.userData()).order(ByteOrder.LITTLE_ENDIAN), 0, 8, first.userData().length);
        assertEquals(a.name(), h.loggerName());
        assertEquals(a.config().bufferSizeBytes(), h.bufferSize());
        assertEquals(a.config().clockType().value(), h.clockType());
    }

    @Test
    void seed003_firstConsumerGetsTheBufferedEventsThenNewOnes() {
        EtwProvider p = provider("p", null);
        TraceSession a = enabledWithoutFlushTimer(p);
        for (int i = 1; i <= 5; i++) {
            p.write(event(i, Level.INFORMATIONAL, 1));
        }
        a.flush(); // no consumer yet: the session keeps the buffer
        RecordingConsumer c = consume(a);
        p.write(event(6, Level.INFORMATIONAL, 1));
        a.flush();
        List<RecordedEvent> got = c.await(from(p), 6, WAIT);
        assertEquals(List.of(1, 2, 3, 4, 5, 6), got.stream().map(RecordedEvent::id).toList());
        assertTrue(c.events.get(0).providerId().equals(Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3")), "header event before buffered events");
    }

    @Test
    void seed003_secondConsumerGetsOnlyNewEvents() {
        EtwProvider p = provider("p", null);
        TraceSession a = enabledWithoutFlushTimer(p);
        RecordingConsumer first = consume(a);
        p.write(event(1, Level.INFORMATIONAL, 1));
        p.write(event(2, Level.INFORMATIONAL, 1)); // still in the current buffer when the second consumer attaches
        RecordingConsumer second = consume(a);
        p.write(event(3, Level.INFORMATIONAL, 1));
        a.flush();
        assertEquals(List.of(1, 2, 3), first.await(from(p), 3, WAIT).stream().map(RecordedEvent::id).toList());
        assertEquals(List.of(3), second.await(from(p), 1, WAIT).stream().map(RecordedEvent::id).toList());
        assertEquals(Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3"), second.events.get(0).providerId(), "synthetic events too");
    }

    @Test
    void seed003_eventsArriveInTimestampOrder() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        for (int i = 0; i < 500; i++) {
            p.write(event(i % 100, Level.INFORMATIONAL, 1));
        }
        a.flush();
        List<RecordedEvent> got = c.await(from(p), 500, WAIT);
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i).timestamp() >= got.get(i - 1).timestamp(), "timestamp order at " + i);
        }
        long now = org.etw4j.TimestampConverter.toFileTime(java.time.Instant.now());
        assertTrue(Math.abs(now - got.get(0).timestamp()) < 60L * 10_000_000L, "timestamps are FILETIME near now");
    }

    // ------------------------------------------------------------------ session filters

    @Test
    void eventIdFiltersAllowOrDenyPerSession() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.EventIds.allow(1, 3)).build()));
        TraceSession b = session("b").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.EventIds.deny(1, 3)).build()));
        RecordingConsumer ca = consume(a);
        RecordingConsumer cb = consume(b);
        for (int i = 1; i <= 4; i++) {
            p.write(event(i, Level.INFORMATIONAL, 1));
        }
        a.flush();
        b.flush();
        assertEquals(List.of(1, 3), ca.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList());
        assertEquals(List.of(2, 4), cb.await(from(p), 2, WAIT).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void processIdAndExecutableFiltersSelectProcesses() {
        EtwProvider p = provider("p", null);
        int self = (int) ProcessHandle.current().pid();
        TraceSession mine = session("mine").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.ProcessIds.of(self)).build()));
        TraceSession other = session("other").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.ProcessIds.of(self + 1)).build()));
        TraceSession exe = session("exe").enable(p.id(), waited(EnableParameters.builder().filter(EventFilter.ExecutableNames.of("no-such-program.exe")).build()));
        RecordingConsumer cm = consume(mine);
        RecordingConsumer co = consume(other);
        RecordingConsumer ce = consume(exe);
        p.write(event(1, Level.INFORMATIONAL, 1));
        mine.flush();
        other.flush();
        exe.flush();
        // Windows can make these (what the consumers received):
        assertEquals(1, cm.await(from(p), 1, WAIT).size());
        assertEquals(0, co.matching(from(p)).size());
        assertEquals(0, ce.matching(from(p)).size());
        // Simulator only: the per-session accepted counts.
        eventCounts(mine.statistics(), st -> assertEquals(1, st.eventsAccepted()));
        eventCounts(other.statistics(), st -> assertEquals(0, st.eventsAccepted()));
    }

    @Test
    void payloadFilterSelectsTraceLoggingEventsByFieldValue() {
        EtwProvider p = provider("p", null);
        TraceLoggingEvent request = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(1).int32Field("status").stringField("path").build();
        TraceLoggingEvent other = TraceLoggingEvent.builder("Other").level(Level.INFORMATIONAL).keyword(1).int32Field("status").build();
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder()
                .filter(EventFilter.Payload.forEvent("Request", false, new PayloadPredicate("status", PayloadPredicate.Op.GE, "500"))).build()));
        RecordingConsumer c = consume(a);
        p.event(request).int32(200).string("/ok").write();
        p.event(request).int32(503).string("/fail").write();
        p.event(other).int32(1).write(); // another event: the filter does not apply
        a.flush();
        List<RecordedEvent> got = c.await(from(p), 2, WAIT);
        assertEquals(2, got.size());
        var f = TraceLoggingSchema.parse(got.get(0).ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL))
                .decode(ByteBuffer.wrap(got.get(0).userData()).order(ByteOrder.LITTLE_ENDIAN), 8);
        assertEquals(503, ((Number) f.get(0).value()).intValue());
        assertEquals("Other", TraceLoggingSchema.parse(got.get(1).ext(EventHeaderLayout.EXT_EVENT_SCHEMA_TL)).name());
    }

    @Test
    void enablePropertiesAddTheirExtendedItems() {
        EtwProvider p = provider("p", null);
        TraceSession a = session("a").enable(p.id(), waited(EnableParameters.builder()
                .property(EnableProperty.SID).property(EnableProperty.TS_ID).property(EnableProperty.PROCESS_START_KEY)
                .property(EnableProperty.STACK_TRACE).build()));
        RecordingConsumer c = consume(a);
        p.write(event(1, Level.INFORMATIONAL, 1));
        a.flush();
        RecordedEvent e = c.await(from(p), 1, WAIT).get(0);
        byte[] sid = e.ext(EventHeaderLayout.EXT_SID);
        assertNotNull(sid);
        assertEquals(1, sid[0], "SID revision");
        assertEquals(8 + 4 * sid[1], sid.length, "SID size = 8 + 4 x SubAuthorityCount");
        assertEquals(4, e.ext(EventHeaderLayout.EXT_TS_ID).length);
        assertEquals(8, e.ext(EventHeaderLayout.EXT_PROCESS_START_KEY).length);
        byte[] stack = e.ext(EventHeaderLayout.EXT_STACK_TRACE64);
        assertNotNull(stack);
        assertTrue(stack.length >= 16 && (stack.length - 8) % 8 == 0, "u64 MatchId then u64 frames");
    }

    // ------------------------------------------------------------------ buffers, losses, sessions

    @Test
    void acceptedEqualsDeliveredPlusLostWithConcurrentWriters() throws Exception {
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).bufferSizeKb(4).buffers(2, 4).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer slow = new RecordingConsumer(backend, a.name()) {
            @Override
            public void onRecord(org.etw4j.RawEventRecord record) {
                super.onRecord(record);
                if (record.id() % 64 == 0) {
                    Thread.onSpinWait();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        cleanup.add(slow);
        int threads = 4;
        int perThread = 5_000;
        AtomicInteger failures = new AtomicInteger();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    if (p.event(event(i % 1000, Level.INFORMATIONAL, 1)).int64(i).string("payload").write() != 0) {
                        failures.incrementAndGet();
                    }
                }
            });
            writers.add(w);
            w.start();
        }
        for (Thread w : writers) {
            w.join();
        }
        a.stop();
        slow.join(WAIT);
        SessionStatistics s = a.statistics();
        // Windows can make these: EventsLost (EVENT_TRACE_PROPERTIES), EventWrite's answers, what the consumer got.
        assertEquals(failures.get(), s.eventsLost(), "every lost event was reported to its writer");
        assertEquals(threads * perThread - failures.get(), slow.matching(from(p)).size(), "every accepted write reached the consumer");
        assertEquals(s.eventsLost(), slow.lost.get(), "losses are announced to the consumer, never silent");
        // Simulator only: the accepted = delivered + lost + pending identity.
        eventCounts(s, st -> {
            assertEquals(threads * perThread, st.eventsAccepted());
            assertEquals(0, st.eventsPending(), "nothing left after stop");
            assertEquals(st.eventsAccepted(), st.eventsDelivered() + st.eventsLost(), "accepted = delivered + lost");
            assertEquals(st.eventsDelivered(), slow.matching(from(p)).size(), "every delivered event reached the consumer");
        });
    }

    @Test
    void sessionNameTakenFailsAttachesOrReplacesByPolicy() {
        TraceSession a = session("a");
        EtwException e = assertThrows(EtwException.class, () -> session(SessionConfig.realTime(a.name()).build()));
        assertEquals(Win32Error.ERROR_ALREADY_EXISTS, e.error());
        assertTrue(e.getMessage().contains("StartTraceW") && e.getMessage().contains("ERROR_ALREADY_EXISTS (183)"), e.getMessage());
        TraceSession attached = session(SessionConfig.realTime(a.name()).ifExists(IfSessionExists.ATTACH).build());
        assertEquals(a.sessionId(), attached.sessionId());
        TraceSession replaced = session(SessionConfig.realTime(a.name()).ifExists(IfSessionExists.REPLACE).build());
        assertNotEquals(a.sessionId(), replaced.sessionId());
        assertFalse(a.isRunning());
    }

    @Test
    void stoppedSessionsAreGoneAndStopIsIdempotent() {
        TraceSession a = session("a");
        assertTrue(backend.querySessions().stream().anyMatch(s -> s.name().equals(a.name())));
        a.stop();
        a.stop();
        a.close();
        assertFalse(backend.querySessions().stream().anyMatch(s -> s.name().equals(a.name())));
        EtwException e = assertThrows(EtwException.class, () -> a.enable(Guid.NULL, EnableParameters.of(Level.ERROR)));
        assertEquals(Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND, e.error());
    }

    @Test
    void stopStaleStopsNoSessionOfALiveProcess() {
        // Issue 21, item 9. Failed before: stopStale stopped every session whose name had the prefix, another
        // application's or a running etw4j process's included. Sessions this process started are provably
        // etw4j's (SessionIds) but their owner runs, so none is stale.
        TraceSession s1 = session("stale-1");
        TraceSession s2 = session("stale-2");
        assertTrue(org.etw4j.spi.SessionIds.owner(s1.name(), s1.sessionId()).isPresent(), "the backend marks its sessions");
        List<String> stopped = org.etw4j.controller.Sessions.stopStale(backend, sessionName("stale-"));
        assertEquals(List.of(), stopped);
        assertTrue(s1.isRunning());
        assertTrue(s2.isRunning());
    }

    // ------------------------------------------------------------------ close order (issue 24.4, issue 21.8)

    @Test
    void stoppingASessionDeliversEveryBufferedEventToItsOpenConsumersBeforeTheyEnd() throws Exception {
        // Issue 24, item 4. Windows can make this assertion (MS Learn, FlushTrace: a session delivers its events
        // "when the buffer is full, the session's FlushTimer expires, or the session is closed"; the FFM backend
        // also sends ControlTrace FLUSH before STOP).
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).flushTimer(Duration.ofSeconds(60)).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        for (int i = 1; i <= 3; i++) {
            assertEquals(0, p.write(event(i, Level.INFORMATIONAL, 1)));
        }
        a.close(); // no flush asked for: close flushes
        c.join(WAIT);
        assertFalse(c.isAlive(), "the consumer's ProcessTrace returned when the session stopped");
        assertEquals(List.of(1, 2, 3), c.matching(from(p)).stream().map(RecordedEvent::id).toList());
        assertEquals(0, c.undelivered.get());
    }

    @Test
    void aConsumerClosedWhileProcessingStillGetsTheBuffersHandedToItButNoNewOnes() throws Exception {
        // Issue 21, item 8 (3). MS Learn, CloseTrace: ERROR_CTX_CLOSE_PENDING, "The ProcessTrace function will stop
        // after it has processed all real-time events in its buffers (it will not receive any new events)".
        // Failed before: the simulator (and the stand-in's consumer, and the FFM consumer) stopped at once.
        // Windows: the buffers "in its buffers" are those ETW delivered before CloseTrace; RealEtwTest states the
        // same case, this suite proves the modelled behaviour.
        EtwProvider p = provider("p", null);
        TraceSession a = enabledWithoutFlushTimer(p);
        CountDownLatch inHeader = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingConsumer c = new RecordingConsumer(backend, a.name(), r -> {
            if (inHeader.getCount() > 0) {
                inHeader.countDown();
                try {
                    release.await(); // holds the delivery thread in the header event's callback
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        cleanup.add(c);
        assertTrue(inHeader.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        for (int i = 1; i <= 3; i++) {
            p.write(event(i, Level.INFORMATIONAL, 1));
        }
        a.flush(); // handed to the consumer, not yet processed
        c.close(); // CloseTrace while ProcessTrace runs
        p.write(event(4, Level.INFORMATIONAL, 1)); // after the close: never delivered to this consumer
        a.flush();
        release.countDown();
        c.join(WAIT);
        assertFalse(c.isAlive(), "ProcessTrace returned after the close");
        assertEquals(List.of(1, 2, 3), c.matching(from(p)).stream().map(RecordedEvent::id).toList());
    }

    @Test
    void aConsumerClosedWithEventsInTheSessionsBufferIsToldHowManyWhereTheBackendCanCount() throws Exception {
        // Issue 24, item 4: closing a consumer inside its session (the natural try-with-resources order) leaves the
        // unflushed buffer's events undelivered. The simulator counts them (RecordSink.onUndelivered); Windows does
        // not report what a session's buffers hold, so the Windows backend is held to reporting nothing.
        EtwProvider p = provider("p", null);
        TraceSession a = enabledWithoutFlushTimer(p);
        RecordingConsumer c = consume(a);
        c.await(e -> true, 1, WAIT); // the header event: ProcessTrace runs
        for (int i = 1; i <= 3; i++) {
            p.write(event(i, Level.INFORMATIONAL, 1));
        }
        c.close();
        c.join(WAIT);
        assertFalse(c.isAlive(), "ProcessTrace returned after the close");
        assertEquals(List.of(), c.matching(from(p)), "nothing was flushed before the close");
        assertEquals(sessionsReportEventCounts() ? 3 : 0, c.undelivered.get());
    }

    @Test
    void theBufferCallbackFollowsEveryDeliveredBuffer() throws Exception {
        // Issue 21, item 8 (2). MS Learn, PEVENT_TRACE_BUFFER_CALLBACKW: "ETW calls this function after the events
        // for each buffer are delivered". Failed before on the FFM backend over the stand-in, which called the
        // BufferCallback only on losses (and the simulator had no such call). Windows: each flush delivers at
        // least one buffer (one per processor that logged), so a callback follows each event here; the exact
        // count (one buffer per flush) is the simulator's.
        EtwProvider p = provider("p", null);
        TraceSession a = enabledWithoutFlushTimer(p);
        RecordingConsumer c = consume(a);
        c.await(e -> true, 1, WAIT); // the header event
        for (int i = 1; i <= 3; i++) {
            p.write(event(i, Level.INFORMATIONAL, 1));
            a.flush();
            int seen = i;
            awaitCondition("the BufferCallback after event " + i, () -> c.bufferEnds.stream().anyMatch(n -> n >= 1 + seen));
        }
        assertEquals(List.of(1, 2, 3), c.matching(from(p)).stream().map(RecordedEvent::id).toList());
        if (sessionsReportEventCounts()) {
            assertEquals(List.of(2, 3, 4), c.bufferEnds, "one callback per buffer, after its record (header + 1, + 2, + 3)");
        }
    }

    @Test
    void flushTimerDeliversPartialBuffersWithoutAnExplicitFlush() {
        EtwProvider p = provider("p", null);
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).flushTimer(Duration.ofSeconds(1)).build());
        a.enable(p.id(), waited(EnableParameters.of(Level.VERBOSE)));
        RecordingConsumer c = consume(a);
        p.write(event(1, Level.INFORMATIONAL, 1));
        assertEquals(1, c.await(from(p), 1, Duration.ofSeconds(5)).size());
    }

    @Test
    void updateMayChangeOnlyFlushTimerAndBuffers() {
        TraceSession a = session("a");
        a.update(SessionConfig.realTime(a.name()).buffers(4, 128).flushTimer(Duration.ofSeconds(2)).build());
        assertEquals(128, a.config().maximumBuffers());
        EtwException e = assertThrows(EtwException.class, () -> a.update(SessionConfig.realTime(a.name()).bufferSizeKb(8).build()));
        assertEquals(Win32Error.ERROR_INVALID_PARAMETER, e.error());
    }

    /**
     * MS Learn, ControlTraceW, Properties with EVENT_TRACE_CONTROL_UPDATE: only EnableFlags (system loggers),
     * FlushTimer ("If this member is 0, the member is not updated"), LogFileNameOffset, LogFileMode (the real-time
     * bit) and MaximumBuffers ("If this member is 0, the member is not updated") are updated. A request Windows
     * would silently ignore is refused, so config() never reports a setting the session does not run with.
     * Real Windows can make these assertions.
     */
    @Test
    void updateRefusesWhatControlTraceUpdateWouldIgnore() {
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).buffers(4, 64).flushTimer(Duration.ofSeconds(1)).build());
        SessionConfig before = a.config();
        EtwException min = assertThrows(EtwException.class, () -> a.update(SessionConfig.realTime(a.name()).buffers(8, 64).build()));
        assertEquals(Win32Error.ERROR_INVALID_PARAMETER, min.error());
        assertTrue(min.getMessage().contains("MinimumBuffers"), min.getMessage());
        EtwException zero = assertThrows(EtwException.class,
                () -> a.update(SessionConfig.realTime(a.name()).flushTimer(Duration.ZERO).build()));
        assertEquals(Win32Error.ERROR_INVALID_PARAMETER, zero.error());
        assertTrue(zero.getMessage().contains("FlushTimer"), zero.getMessage());
        assertEquals(before, a.config(), "a refused update changes nothing");
        SessionConfig running = TraceSession.attach(a.name(), backend).config();
        assertEquals(before.minimumBuffers(), running.minimumBuffers());
        assertEquals(before.flushTimer(), running.flushTimer());
    }

    /** After UPDATE, config() is what a QUERY of the running session reports. Real Windows can make these assertions. */
    @Test
    void configAfterUpdateIsWhatTheRunningSessionReports() {
        TraceSession a = session(SessionConfig.realTime(sessionName("a")).buffers(4, 64).flushTimer(Duration.ofSeconds(1)).build());
        a.update(SessionConfig.realTime(a.name()).buffers(4, 96).flushTimer(Duration.ofSeconds(3)).build());
        SessionConfig running = TraceSession.attach(a.name(), backend).config();
        assertEquals(96, running.maximumBuffers());
        assertEquals(Duration.ofSeconds(3), running.flushTimer());
        assertEquals(running.maximumBuffers(), a.config().maximumBuffers());
        assertEquals(running.minimumBuffers(), a.config().minimumBuffers());
        assertEquals(running.flushTimer(), a.config().flushTimer());
        assertEquals(running.bufferSizeKb(), a.config().bufferSizeKb());
    }

    /**
     * A registration closed from inside its own enable callback (ProviderRegistration's class comment): close()
     * returns there, although Windows' EventUnregister waits for the registration's running callbacks, the
     * registration is closed at once, and no later notification reaches it. All of it holds on real Windows too.
     */
    @Test
    void aRegistrationClosedInsideItsOwnEnableCallbackIsClosedAtOnceWithoutBlocking() {
        Guid id = Guid.parse("12345678-0000-0000-0000-000000000def");
        AtomicReference<org.etw4j.spi.ProviderRegistration> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger writeAfterClose = new AtomicInteger(-1);
        self.set(backend.registerProvider(id, (c, s, l, any, all, f) -> {
            calls.incrementAndGet();
            self.get().close();
            writeAfterClose.set(self.get().write(event(1, Level.ERROR, 1), null, null, new EventData()));
        }));
        cleanup.add(self.get());
        TraceSession a = session("a");
        assertTimeoutPreemptively(WAIT, () -> a.enable(id, waited(EnableParameters.of(Level.ERROR))),
                "close() inside the registration's own enable callback did not return");
        assertEquals(1, calls.get());
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), writeAfterClose.get(), "closed before the callback returned");
        a.disable(id);
        session("b").enable(id, waited(EnableParameters.of(Level.VERBOSE))); // waits for the callbacks queued before
        assertEquals(1, calls.get(), "no notification reaches a closed registration");
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), self.get().write(event(1, Level.ERROR, 1), null, null, new EventData()));
    }

    @Test
    void aCallbackThatThrowsDoesNotBreakTheBackend() {
        org.etw4j.spi.ProviderRegistration reg = backend.registerProvider(Guid.parse("12345678-0000-0000-0000-000000000abc"), (c, s, l, any, all, f) -> {
            throw new IllegalStateException("boom");
        });
        try {
            TraceSession a = session("a");
            assertDoesNotThrow(() -> a.enable(Guid.parse("12345678-0000-0000-0000-000000000abc"), EnableParameters.of(Level.ERROR)));
        } finally {
            reg.close();
        }
    }
}
