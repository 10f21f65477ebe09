package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.StreamOptions;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Live decoding through TDH, end to end over the stand-in: the FFM backend's view asks TdhGetEventInformation /
 * TdhGetEventMapInformation (answered by {@link SimEtwEngine} with blobs from {@link TdhBlobs}, as if the test
 * provider's manifest were registered on the machine) and an etw-consumer {@link EventStream} decodes the
 * provider's manifest-style events to named fields without any manifest given to it.
 */
@Tag("standin")
class TdhLiveDecodingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int ERROR_INVALID_PARAMETER = 87;

    private SimEtwEngine engine;
    private WindowsBackend backend;
    private final List<UpcallFailure> reported = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private String prefix;

    @BeforeEach
    void setUp(TestInfo info) {
        engine = SimEtwEngine.install();
        engine.route(new SimulatedBackend());
        backend = WindowsBackend.create(reported::add);
        prefix = "tdh-" + info.getTestMethod().map(m -> m.getName()).orElse("t") + "-";
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
        assertEquals(List.of(), reported, "a callback failed");
        assertEquals(List.of(), WindowsBackend.orphanFailures());
    }

    /** Order/Start (id 5, version 1, task 2, opcode 1): Quantity u32, Price double, Status u32 (StatusMap), Customer. */
    private static final EventDescriptor ORDER = new EventDescriptor(5, 1, 0, Level.INFORMATIONAL.value(), 1, 2, 1);
    /** An event TDH knows nothing about. */
    private static final EventDescriptor UNKNOWN = new EventDescriptor(6, 0, 0, Level.INFORMATIONAL.value(), 0, 0, 1);

    private static byte[] orderInfo(Guid provider, String message) {
        return new TdhBlobs.EventInfo(provider, 5, 1, 1, 2).providerName("Test-Tdh-Provider").taskName("Order")
                .opcodeName("win:Start").message(message)
                .property(TdhBlobs.Property.of("Quantity", 8))
                .property(TdhBlobs.Property.of("Price", 12))
                .property(TdhBlobs.Property.mapped("Status", 8, "StatusMap"))
                .property(TdhBlobs.Property.of("Customer", 1))
                .build();
    }

    private EtwProvider provider(String suffix, boolean withOrderSchema, String message) {
        EtwProvider p = EtwProvider.builder(prefix + suffix).backend(backend).register();
        cleanup.add(p);
        if (withOrderSchema) {
            engine.registerTdhEvent(p.id(), 5, 1, orderInfo(p.id(), message));
            engine.registerTdhMap(p.id(), "StatusMap",
                    TdhBlobs.valueMap("StatusMap", false, new long[] {1, 2}, new String[] {"Open", "Closed"}));
        }
        return p;
    }

    private SessionControl session(EtwProvider p) {
        SessionControl s = backend.startSession(SessionConfig.realTime(prefix + "s").build());
        cleanup.add(s::stop);
        s.enableProvider(p.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT));
        return s;
    }

    /** A direct (no queue) stream of {@code p}'s events, decoded on the delivery thread while TDH can be asked. */
    private EventStream stream(SessionControl s, EtwProvider p, List<EventRecord> decoded, CountDownLatch latch) {
        return stream(s, p, decoded, latch, StreamOptions.direct());
    }

    private EventStream stream(SessionControl s, EtwProvider p, List<EventRecord> decoded, CountDownLatch latch,
                               StreamOptions options) {
        EventStream stream = EventStream.openSession(s.name(), backend, options);
        cleanup.add(stream);
        stream.onEvent(p.id(), e -> {
            decoded.add(e.copy());
            latch.countDown();
        });
        stream.startAsync();
        return stream;
    }

    private static int writeOrder(EtwProvider p, long quantity, double price, long status, String customer) {
        return p.event(ORDER).uint32(quantity).float64(price).uint32(status).string(customer).write();
    }

    @Test
    void anEventStreamDecodesAManifestEventWithTheMachinesTdhSchema() throws Exception {
        EtwProvider p = provider("p", true, "%1 items at %2 for %4");
        SessionControl s = session(p);
        List<EventRecord> decoded = new CopyOnWriteArrayList<>();
        CountDownLatch latch = new CountDownLatch(5);
        EventStream stream = stream(s, p, decoded, latch);
        TraceLoggingEvent hello = TraceLoggingEvent.builder("Hello").level(Level.INFORMATIONAL).keyword(1)
                .int32Field("n").build();

        assertEquals(0, writeOrder(p, 3, 9.5, 2, "ACME"));
        assertEquals(0, p.write(UNKNOWN));
        assertEquals(0, p.event(hello).int32(7).write());
        assertEquals(0, writeOrder(p, 4, 1.25, 1, "Initech"));
        assertEquals(0, p.write(UNKNOWN));
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS), "events arrived: " + decoded);

        EventRecord order = decoded.get(0);
        assertEquals(SchemaSource.TDH_LIVE, order.schemaSource(), order.toString());
        assertEquals("Test-Tdh-Provider/Order/Start", order.providerName() + "/" + order.eventName());
        assertEquals(3L, order.getValue("Quantity"));
        assertEquals(9.5, order.getValue("Price"));
        assertEquals(2L, order.getValue("Status"));
        assertEquals("Closed", order.getField("Status").label(), "the value map came from TdhGetEventMapInformation");
        assertEquals("ACME", order.getValue("Customer"));
        assertEquals("3 items at 9.5 for ACME", order.message().orElseThrow());
        assertEquals(List.of(), order.notes());
        assertFalse(order.toString().contains("<undecoded>"), order.toString());

        EventRecord second = decoded.get(3);
        assertEquals(SchemaSource.TDH_LIVE, second.schemaSource());
        assertEquals("Open", second.getField("Status").label());
        assertEquals("Initech", second.getValue("Customer"));

        for (EventRecord unknown : List.of(decoded.get(1), decoded.get(4))) {
            assertEquals(SchemaSource.NONE, unknown.schemaSource());
            assertTrue(unknown.notes().stream().anyMatch(n -> n.contains("ERROR_NOT_FOUND")), unknown.notes().toString());
        }
        assertEquals(SchemaSource.TRACELOGGING, decoded.get(2).schemaSource());

        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 5, 1), "one TDH lookup for the kind, then the cache");
        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 6, 0), "a miss is remembered too");
        assertEquals(0, engine.tdhEventInformationCalls(p.id(), 0, 0), "TraceLogging needs no TDH");
        stream.close();
        assertTrue(stream.awaitTermination(WAIT));
        assertEquals(0, stream.statistics().handlerErrors());
    }

    @Test
    void aQueuedStreamDecodesItsCopiesWithSchemasLookedUpDuringTheCallback() throws Exception {
        // The default stream hands copies to its own thread; a copy cannot ask TDH, so the delivery thread looks
        // the kind up before copying.
        EtwProvider p = provider("p", true, null);
        SessionControl s = session(p);
        List<EventRecord> decoded = new CopyOnWriteArrayList<>();
        CountDownLatch latch = new CountDownLatch(3);
        EventStream stream = stream(s, p, decoded, latch, StreamOptions.DEFAULT);
        assertEquals(0, writeOrder(p, 3, 9.5, 2, "ACME"));
        assertEquals(0, p.write(UNKNOWN));
        assertEquals(0, writeOrder(p, 4, 1.25, 1, "Initech"));
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS), "events arrived: " + decoded);
        assertEquals(SchemaSource.TDH_LIVE, decoded.get(0).schemaSource(), decoded.get(0).toString());
        assertEquals("Closed", decoded.get(0).getField("Status").label());
        assertEquals("Initech", decoded.get(2).getValue("Customer"));
        assertEquals(SchemaSource.NONE, decoded.get(1).schemaSource());
        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 5, 1));
        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 6, 0));
        stream.close();
        assertTrue(stream.awaitTermination(WAIT));
    }

    @Test
    void aTdhFailureBecomesANoteAndTheStreamGoesOn() throws Exception {
        EtwProvider p = provider("p", true, null);
        SessionControl s = session(p);
        List<EventRecord> decoded = new CopyOnWriteArrayList<>();
        List<Throwable> streamErrors = new CopyOnWriteArrayList<>();
        CountDownLatch latch = new CountDownLatch(2);
        EventStream stream = stream(s, p, decoded, latch);
        stream.onError(streamErrors::add);
        engine.failNext("TdhGetEventInformation", ERROR_INVALID_PARAMETER);
        assertEquals(0, writeOrder(p, 3, 9.5, 2, "ACME"));
        assertEquals(0, writeOrder(p, 4, 1.0, 1, "Initech"));
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        for (EventRecord e : decoded) {
            assertEquals(SchemaSource.NONE, e.schemaSource());
            assertTrue(e.notes().stream().anyMatch(n -> n.contains("TDH lookup failed") && n.contains("TdhGetEventInformation")),
                    e.notes().toString());
        }
        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 5, 1), "a failing kind is not asked again");
        assertEquals(List.of(), streamErrors);
    }

    @Test
    void theViewRemembersNotFoundGrowsItsBufferAndItsAnswersDieWithTheCallback() throws Exception {
        String longMessage = "x".repeat(5000); // a TRACE_EVENT_INFO larger than the view's first 4 KB buffer
        EtwProvider p = provider("p", true, longMessage);
        byte[] expected = orderInfo(p.id(), longMessage);
        SessionControl s = session(p);
        List<byte[]> answers = new CopyOnWriteArrayList<>();
        List<Boolean> unknownAnswers = new CopyOnWriteArrayList<>();
        AtomicReference<EventRecordView> keptView = new AtomicReference<>();
        AtomicReference<ByteBuffer> keptInfo = new AtomicReference<>();
        CountDownLatch latch = new CountDownLatch(5);
        TraceConsumer c = backend.openRealTime(s.name(), r -> {
            if (!r.providerId().equals(p.id())) {
                return;
            }
            assertTrue(r.providesEventInformation());
            if (r.id() == 5) {
                ByteBuffer info = r.eventInformation();
                byte[] b = new byte[info.remaining()];
                info.duplicate().get(b);
                answers.add(b);
                keptView.set((EventRecordView) r);
                keptInfo.set(info);
            } else {
                unknownAnswers.add(r.eventInformation() == null && r.eventInformation() == null);
            }
            latch.countDown();
        });
        cleanup.add(c);
        Thread t = new Thread(c::process, "tdh-consumer");
        t.setDaemon(true);
        t.start();
        assertEquals(0, writeOrder(p, 1, 1, 1, "a"));
        assertEquals(0, writeOrder(p, 2, 2, 2, "b"));
        for (int i = 0; i < 3; i++) {
            assertEquals(0, p.write(UNKNOWN));
        }
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS));

        assertEquals(2, answers.size());
        for (byte[] a : answers) {
            assertArrayEquals(expected, a, "the view returns exactly what TDH wrote");
        }
        assertEquals(List.of(true, true, true), unknownAnswers);
        assertEquals(3, engine.tdhEventInformationCalls(p.id(), 5, 1),
                "first lookup: too small, grow, again; second lookup: the grown buffer fits");
        assertEquals(1, engine.tdhEventInformationCalls(p.id(), 6, 0), "six asks, one TDH call: NOT_FOUND remembered");

        // The latch counts down inside the last callback: end the consumer so that no callback is running.
        c.close();
        t.join(WAIT.toMillis());
        assertFalse(t.isAlive());
        EventRecordView view = keptView.get();
        assertNotNull(view);
        assertFalse(view.providesEventInformation(), "after the callback the view cannot ask");
        assertThrows(IllegalStateException.class, view::eventInformation);
        // the answer lives in the callback's confined arena: closed now, and never readable from another thread
        RuntimeException dead = assertThrows(RuntimeException.class, () -> keptInfo.get().get(0));
        assertTrue(dead instanceof IllegalStateException || dead instanceof WrongThreadException, dead.toString());
    }

    @Test
    void otherTdhErrorsAreTypedExceptionsNamingTheFunction() throws Exception {
        EtwProvider p = provider("p", true, null);
        SessionControl s = session(p);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Object> mapAnswer = new AtomicReference<>();
        CountDownLatch latch = new CountDownLatch(1);
        TraceConsumer c = backend.openRealTime(s.name(), r -> {
            if (r.providerId().equals(p.id())) {
                thrown.set(assertThrows(EtwException.class, r::eventInformation));
                mapAnswer.set(r.eventMapInformation("NoSuchMap") == null ? "null" : "a buffer");
                latch.countDown();
            }
        });
        cleanup.add(c);
        Thread t = new Thread(c::process, "tdh-consumer");
        t.setDaemon(true);
        t.start();
        engine.failNext("TdhGetEventInformation", ERROR_INVALID_PARAMETER);
        assertEquals(0, writeOrder(p, 1, 1, 1, "a"));
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        EtwException e = (EtwException) thrown.get();
        assertEquals("TdhGetEventInformation", e.function());
        assertEquals(ERROR_INVALID_PARAMETER, e.status());
        assertEquals("null", mapAnswer.get(), "an unknown map is ERROR_NOT_FOUND: null");
    }

    @Test
    void aCopyOfALiveRecordCannotAsk() throws Exception {
        EtwProvider p = provider("p", true, null);
        SessionControl s = session(p);
        AtomicReference<RawEventRecord> copy = new AtomicReference<>();
        CountDownLatch latch = new CountDownLatch(1);
        TraceConsumer c = backend.openRealTime(s.name(), r -> {
            if (r.providerId().equals(p.id())) {
                copy.set(r.copy());
                latch.countDown();
            }
        });
        cleanup.add(c);
        Thread t = new Thread(c::process, "tdh-consumer");
        t.setDaemon(true);
        t.start();
        assertEquals(0, writeOrder(p, 1, 1, 1, "a"));
        s.flush();
        assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertFalse(copy.get().providesEventInformation());
        assertNull(copy.get().eventInformation());
        assertEquals(0, engine.tdhEventInformationCalls(p.id(), 5, 1));
    }
}
