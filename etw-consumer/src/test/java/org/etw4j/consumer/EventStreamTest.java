package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Live streams over simulated sessions: delivery, ordering, back-pressure accounting, lifecycle, routing, copies. */
class EventStreamTest {
    private static final EventDescriptor SEQ = new EventDescriptor(1, 0, 0, 4, 0, 0, 0x1L);
    private static final EventDescriptor REQUEST = new EventDescriptor(7, 1, 0, 4, 0, 0, 0x2L);

    @TempDir
    Path dir;

    /** One simulated machine with a real-time session and an enabled provider. */
    private static final class Rig implements AutoCloseable {
        final SimulatedBackend backend = new SimulatedBackend();
        final TraceSession session;
        final EtwProvider provider;

        Rig(SessionConfig.Builder config, String providerName) {
            session = TraceSession.start(config.build(), backend);
            provider = EtwProvider.builder(providerName).backend(backend).register();
            session.enable(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(java.time.Duration.ofSeconds(10)));
        }

        @Override
        public void close() {
            provider.close();
            session.close();
        }
    }

    private static Rig rig(int bufferKb, int minBuffers, int maxBuffers) {
        return new Rig(SessionConfig.realTime("stream-" + UUID.randomUUID()).bufferSizeKb(bufferKb)
                .buffers(minBuffers, maxBuffers).flushTimer(Duration.ZERO), "Etw4j-Test-Stream");
    }

    private static void writeConcurrently(EtwProvider p, int threads, int perThread) throws InterruptedException {
        GatedThreads.run(threads, "writer-", thread -> {
            for (int i = 0; i < perThread; i++) {
                assertEquals(0, p.event(SEQ).int32(thread).int32(i).write());
            }
        });
    }

    @ParameterizedTest
    @EnumSource(value = Backpressure.class, names = {"NONE", "BLOCK"})
    void everyEventExactlyOnceInOrderPerThread(Backpressure policy) throws Exception {
        int threads = 4;
        int perThread = 2500;
        try (Rig rig = rig(64, 4, 4096)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend, StreamOptions.queued(policy, 256));
            int[] next = new int[threads];
            AtomicLong outOfOrder = new AtomicLong();
            AtomicLong count = new AtomicLong();
            AtomicReference<Thread> handlerThread = new AtomicReference<>();
            stream.onEvent(rig.provider.id(), e -> {
                handlerThread.compareAndSet(null, Thread.currentThread());
                int t = e.userData().getInt(0);
                int i = e.userData().getInt(4);
                if (i != next[t]) {
                    outOfOrder.incrementAndGet();
                }
                next[t] = i + 1;
                count.incrementAndGet();
            });
            stream.startAsync();
            writeConcurrently(rig.provider, threads, perThread);
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(20)));
            assertEquals(0, rig.session.statistics().eventsLost(), "the session kept up");
            assertEquals((long) threads * perThread, count.get(), "every event received");
            assertEquals(0, outOfOrder.get(), "in order, none twice, per writer thread");
            for (int t = 0; t < threads; t++) {
                assertEquals(perThread, next[t]);
            }
            EventStreamStatistics s = stream.statistics();
            assertEquals((long) threads * perThread + 1, s.received(), "events + the session's header event");
            assertEquals(s.received(), s.dispatched());
            assertEquals(0, s.droppedByStream());
            assertEquals(0, s.discardedAtClose());
            assertEquals(0, s.lostBySession());
            assertTrue(handlerThread.get().isDaemon(), "startAsync uses a daemon thread");
            assertTrue(stream.isClosed());
        }
    }

    @Test
    void dropNewestCountsAndReportsEveryDrop() throws Exception {
        int written = 600;
        try (Rig rig = rig(64, 4, 4096)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend,
                    StreamOptions.queued(Backpressure.DROP_NEWEST, 8));
            AtomicLong handled = new AtomicLong();
            AtomicLong reportedDrops = new AtomicLong();
            AtomicLong sessionReports = new AtomicLong();
            stream.onEvent(e -> {
                handled.incrementAndGet();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            stream.onLost(l -> {
                if (l.source() == LostEvents.Source.STREAM_QUEUE) {
                    reportedDrops.addAndGet(l.events());
                } else {
                    sessionReports.addAndGet(l.events());
                }
            });
            stream.startAsync();
            for (int i = 0; i < written; i++) {
                assertEquals(0, rig.provider.event(SEQ).int32(0).int32(i).write());
            }
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(30)));
            EventStreamStatistics s = stream.statistics();
            assertEquals(written + 1, s.received(), "events + header event reached the stream");
            assertTrue(s.droppedByStream() > 0, "a slow handler behind an 8-record queue makes drops: " + s);
            assertEquals(s.droppedByStream(), reportedDrops.get(), "every drop reported through onLost");
            assertEquals(s.received(), handled.get() + s.droppedByStream(), "received = handled + dropped, none silent");
            assertEquals(s.dispatched(), handled.get());
            assertEquals(0, s.lostBySession());
            assertEquals(0, sessionReports.get());
            assertEquals(0, rig.session.statistics().eventsLost(), "DROP_NEWEST never holds ETW back");
        }
    }

    @Test
    void blockMakesTheSessionLoseAndTheStreamReportsIt() throws Exception {
        int burst = 3000;
        try (Rig rig = rig(1, 2, 2)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend,
                    StreamOptions.queued(Backpressure.BLOCK, 1));
            AtomicLong handled = new AtomicLong();
            AtomicLong reportedSessionLoss = new AtomicLong();
            stream.onEvent(rig.provider.id(), e -> {
                handled.incrementAndGet();
                if (handled.get() < 50) {
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            stream.onLost(l -> {
                assertEquals(LostEvents.Source.SESSION, l.source());
                reportedSessionLoss.addAndGet(l.events());
            });
            stream.startAsync();
            int refused = 0;
            for (int i = 0; i < burst; i++) {
                if (rig.provider.event(SEQ).int32(0).int32(i).write() != 0) {
                    refused++;
                }
            }
            // Let the stream catch up, then log one more event: the buffer carrying it reports the losses before it.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                rig.session.flush();
                var st = rig.session.statistics();
                if (st.eventsPending() == 0 && st.freeBuffers() == st.numberOfBuffers()) {
                    break; // the stream released every buffer
                }
                Thread.sleep(10);
            }
            assertEquals(0, rig.provider.event(SEQ).int32(0).int32(burst).write());
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(20)));
            long sessionLost = rig.session.statistics().eventsLost();
            EventStreamStatistics s = stream.statistics();
            assertTrue(sessionLost > 0, "2 one-KB buffers behind a blocked consumer lose events");
            assertEquals(refused, sessionLost, "each refused write is a session loss");
            assertEquals(sessionLost, s.lostBySession(), "the stream counted what the session lost");
            assertEquals(sessionLost, reportedSessionLoss.get(), "and reported it through onLost");
            assertEquals(burst + 1, handled.get() + sessionLost, "every written event handled or counted lost");
            assertEquals(0, s.droppedByStream(), "BLOCK never drops in the stream");
        }
    }

    @Test
    void closeIsIdempotentAndTerminates() throws Exception {
        try (Rig rig = rig(64, 4, 64)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend);
            AtomicInteger closes = new AtomicInteger();
            stream.onClose(closes::incrementAndGet);
            stream.startAsync();
            assertFalse(stream.awaitTermination(Duration.ofMillis(100)), "a live stream runs until stopped");
            assertThrows(IllegalStateException.class, stream::start, "a stream runs once");
            stream.close();
            stream.close();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)));
            stream.close();
            assertEquals(1, closes.get(), "onClose ran exactly once");
            assertTrue(stream.isClosed());
            assertTrue(rig.session.isRunning(), "closing a stream does not stop the session");

            // Never started: close terminates at once; start afterwards is refused.
            EventStream idle = EventStream.openSession(rig.session.name(), rig.backend);
            AtomicInteger idleCloses = new AtomicInteger();
            idle.onClose(idleCloses::incrementAndGet);
            idle.close();
            idle.close();
            assertTrue(idle.awaitTermination(Duration.ZERO));
            assertEquals(1, idleCloses.get());
            assertThrows(IllegalStateException.class, idle::startAsync);

            // Closed from inside a handler, on the handler thread, with start() blocking the caller.
            EventStream self = EventStream.openSession(rig.session.name(), rig.backend, StreamOptions.direct());
            AtomicInteger seen = new AtomicInteger();
            self.onEvent(rig.provider.id(), e -> {
                seen.incrementAndGet();
                self.close();
            });
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    rig.provider.event(SEQ).int32(0).int32(i).write();
                }
                rig.session.flush();
            });
            writer.start();
            self.start();
            writer.join();
            assertTrue(self.awaitTermination(Duration.ZERO), "start() returned: terminated");
            assertEquals(1, seen.get(), "no handler call after close()");
        }
    }

    @Test
    void routesByProviderIdAndName() throws Exception {
        Path manifest = dir.resolve("stream.man");
        try (Rig rig = rig(64, 4, 64)) {
            Guid id = rig.provider.id();
            Files.writeString(manifest, """
                    <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
                     <instrumentation><events>
                      <provider name="Etw4j-Test-Stream" guid="{%s}" symbol="P" resourceFileName="x" messageFileName="x">
                       <events><event value="7" version="1" level="win:Informational" symbol="Request" template="T1"/></events>
                       <templates><template tid="T1">
                        <data name="n" inType="win:Int32"/>
                        <data name="msg" inType="win:UnicodeString"/>
                       </template></templates>
                      </provider>
                     </events></instrumentation>
                    </instrumentationManifest>
                    """.formatted(id));
            TraceLoggingEvent alpha = TraceLoggingEvent.builder("Alpha").level(Level.INFORMATIONAL).int32Field("v").build();
            TraceLoggingEvent beta = TraceLoggingEvent.builder("Beta").level(Level.INFORMATIONAL).stringField("s").build();
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend).addManifest(manifest);
            AtomicInteger alphas = new AtomicInteger();
            AtomicInteger betas = new AtomicInteger();
            AtomicInteger requests = new AtomicInteger();
            AtomicInteger id1 = new AtomicInteger();
            AtomicInteger ofProvider = new AtomicInteger();
            AtomicInteger otherProvider = new AtomicInteger();
            AtomicInteger all = new AtomicInteger();
            List<String> requestMessages = Collections.synchronizedList(new ArrayList<>());
            stream.onEvent(id, "Alpha", e -> {
                assertEquals(alphas.get(), e.getInt("v"));
                alphas.incrementAndGet();
            });
            stream.onEvent(id, "Beta", e -> {
                assertEquals("b" + betas.get(), e.getString("s"));
                betas.incrementAndGet();
            });
            stream.onEvent(id, "Request", e -> {
                assertEquals(SchemaSource.MANIFEST, e.schemaSource());
                requestMessages.add(e.getString("msg") + "#" + e.getInt("n"));
                requests.incrementAndGet();
            });
            stream.onEvent(id, 1, e -> id1.incrementAndGet());
            stream.onEvent(id, e -> ofProvider.incrementAndGet());
            stream.onEvent(Guid.of(new UUID(1, 2)), e -> otherProvider.incrementAndGet());
            stream.onEvent(e -> all.incrementAndGet());
            stream.startAsync();
            for (int i = 0; i < 10; i++) {
                rig.provider.event(alpha).int32(i).write();
                rig.provider.event(beta).string("b" + i).write();
                rig.provider.event(SEQ).int32(0).int32(i).write();
            }
            for (int i = 0; i < 3; i++) {
                rig.provider.event(REQUEST).int32(i).string("req").write();
            }
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)));
            assertEquals(0, stream.statistics().handlerErrors(), "the handlers' own assertions held");
            assertEquals(10, alphas.get());
            assertEquals(10, betas.get());
            assertEquals(3, requests.get(), "manifest events routed by their manifest name");
            assertEquals(List.of("req#0", "req#1", "req#2"), requestMessages);
            assertEquals(10, id1.get());
            assertEquals(33, ofProvider.get());
            assertEquals(0, otherProvider.get());
            assertEquals(34, all.get(), "plus the session's header event");
        }
    }

    /**
     * {@code EventRecord.toJson()} and {@code toString()} are the lines {@code etw dump} writes (one formatter, one
     * value rule): integers with the sign their schema declares (before: every integer signed, so a UINT64 of all
     * ones read -1 here while dump wrote 18446744073709551615), and dump's keys ({@code provider.id}, {@code cpu};
     * before: {@code providerId}, {@code processor}).
     */
    @Test
    void toJsonAndToStringAreDumpsLines() throws Exception {
        TraceLoggingEvent big = TraceLoggingEvent.builder("Big").level(Level.INFORMATIONAL).uint64Field("Unsigned")
                .int64Field("Signed").hexInt64Field("Hex").build();
        try (Rig rig = rig(64, 4, 64)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend, StreamOptions.direct());
            List<EventRecord> copies = new ArrayList<>();
            stream.onEvent(rig.provider.id(), e -> copies.add(e.copy()));
            stream.startAsync();
            rig.provider.event(big).uint64(-1L).int64(-1L).int64(-1L).write();
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)));
            assertEquals(1, copies.size());
            EventRecord e = copies.get(0);
            String json = e.toJson();
            assertTrue(json.contains("\"fields\":{\"Unsigned\":18446744073709551615,\"Signed\":-1,"
                    + "\"Hex\":\"0xffffffffffffffff\"}"), json);
            assertTrue(json.contains("\"provider\":{\"id\":\"" + rig.provider.id() + "\",\"name\":\"Etw4j-Test-Stream\"}"),
                    json);
            assertTrue(json.contains(",\"cpu\":" + e.processorIndex() + ","), json);
            assertFalse(json.contains("providerId") || json.contains("processor"), json);
            java.io.StringWriter dumped = new java.io.StringWriter();
            org.etw4j.consumer.output.EventFormatter f = new org.etw4j.consumer.output.EventFormatter(
                    org.etw4j.consumer.output.EventFormat.JSONL, dumped);
            f.write(e);
            f.flush();
            assertEquals(json + System.lineSeparator(), dumped.toString());
            assertTrue(e.toString().endsWith("Etw4j-Test-Stream/Big Unsigned=18446744073709551615; Signed=-1; "
                    + "Hex=0xffffffffffffffff;"), e.toString());
        }
    }

    @Test
    void viewsAreReusedAndCopiesSurvive() throws Exception {
        TraceLoggingEvent tick = TraceLoggingEvent.builder("Tick").level(Level.INFORMATIONAL).int32Field("index")
                .stringField("text").build();
        try (Rig rig = rig(64, 4, 64)) {
            EventStream stream = EventStream.openSession(rig.session.name(), rig.backend, StreamOptions.direct());
            List<EventRecord> views = new ArrayList<>();
            List<EventRecord> copies = new ArrayList<>();
            stream.onEvent(rig.provider.id(), e -> {
                views.add(e);
                assertFalse(e.isCopy());
                EventRecord c = e.copy();
                assertTrue(c.isCopy());
                assertSame(c, c.copy());
                copies.add(c);
            });
            stream.startAsync();
            Guid related = Guid.of(new UUID(5, 6));
            for (int i = 0; i < 20; i++) {
                rig.provider.event(tick).relatedActivityId(related).int32(i).string("t" + i).write();
            }
            rig.session.stop();
            assertTrue(stream.awaitTermination(Duration.ofSeconds(10)));
            assertEquals(20, copies.size());
            for (EventRecord v : views) {
                assertSame(views.get(0), v, "one reused view per stream");
            }
            for (int i = 0; i < 20; i++) {
                EventRecord c = copies.get(i);
                assertEquals(i, c.getInt("index"), "copies keep their own data after the callback");
                assertEquals("t" + i, c.getString("text"));
                assertEquals("Tick", c.eventName());
                assertEquals("Etw4j-Test-Stream", c.providerName());
                assertEquals(related, c.relatedActivityId());
                assertEquals(HeaderKind.EVENT_HEADER, c.headerKind());
                assertTrue(c.hasField("index"));
                assertFalse(c.hasField("nope"));
                assertThrows(IllegalArgumentException.class, () -> c.getValue("nope"));
                assertThrows(IllegalArgumentException.class, () -> c.getInt("text"));
                assertEquals(2, c.getFields().size());
                String json = c.toJson();
                assertTrue(json.contains(",\"name\":\"Tick\"},\"pid\":"), json);
                assertTrue(json.contains("\"fields\":{\"index\":" + i + ",\"text\":\"t" + i + "\"}"), json);
                assertTrue(json.contains("\"relatedActivityId\":\"" + related + "\""), json);
                String text = c.toString();
                assertTrue(text.endsWith("  related " + related + "  Etw4j-Test-Stream/Tick index=" + i + "; text=t" + i
                        + ";"), text);
            }
        }
    }
}
