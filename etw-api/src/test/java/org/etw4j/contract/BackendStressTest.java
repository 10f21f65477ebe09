package org.etw4j.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionInfo;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.controller.TraceSession;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.spi.EtwBackend;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.Test;

/**
 * Sessions under stress: threads enable, disable, write, start, stop and close providers and sessions at random
 * for a bounded time ({@code -Detw4j.stress.seconds}, default 3), each started session with a real-time consumer.
 * Subclasses supply the backend (simulated; FFM over the C stand-in).
 *
 * <p>Checked: no deadlock (a watchdog dumps every thread and fails when the workers do not end within 30 s of
 * the deadline); no exception escapes a write (writes return a status); control calls fail only with
 * {@link EtwException} (e.g. enabling on a session another thread just stopped); every statistics snapshot
 * taken during the run and every session's final one obey {@code accepted = delivered + lost + pending}
 * where the backend counts events (simulated sessions; on the Windows backend, as on Windows, only lost events
 * and buffers are reported: see {@link #sessionsReportEventCounts}); after close, none of the sessions is still running and every consumer thread
 * has ended.
 */
public abstract class BackendStressTest {
    private static final int PROVIDERS = 6;
    private static final int SESSIONS = 4;
    private static final int THREADS = 6;
    private static final EventDescriptor MANIFEST_EVENT = EventDescriptor.of(7, Level.INFORMATIONAL, 0x1);
    private static final TraceLoggingEvent TL_EVENT = TraceLoggingEvent.builder("Stress").level(Level.VERBOSE)
            .keyword(0x2).int32Field("n").stringField("s").build();

    /** A new backend, isolated from other tests. */
    protected abstract EtwBackend newBackend();

    /**
     * Whether this backend's sessions count events accepted, delivered and pending (simulated sessions do; the
     * Windows backend does not, as Windows does not report them: see {@link BackendContractTest}).
     */
    protected boolean sessionsReportEventCounts() {
        return true;
    }

    private EtwBackend backend;
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Thread> consumerThreads = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<TraceConsumer> consumers = new ConcurrentLinkedQueue<>();
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** Writes a run makes at least, so that every check below has seen real traffic. */
    private static final long MIN_WRITES = 1000;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong controlRefusals = new AtomicLong();

    @Test
    void randomControlAndWritesFromManyThreads() throws Exception {
        backend = newBackend();
        long seconds = Long.getLong("etw4j.stress.seconds", 3);
        String prefix = "etw4j-stress-" + ProcessHandle.current().pid() + "-";
        AtomicReferenceArray<EtwProvider> providers = new AtomicReferenceArray<>(PROVIDERS);
        AtomicReferenceArray<TraceSession> sessions = new AtomicReferenceArray<>(SESSIONS);
        Object[] providerLocks = new Object[PROVIDERS];
        Object[] sessionLocks = new Object[SESSIONS];
        for (int i = 0; i < PROVIDERS; i++) {
            providerLocks[i] = new Object();
            providers.set(i, EtwProvider.builder(prefix + "provider-" + i).backend(backend).register());
        }
        for (int i = 0; i < SESSIONS; i++) {
            sessionLocks[i] = new Object();
            sessions.set(i, start(prefix + "session-" + i));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        // The run lasts its seconds and until it wrote MIN_WRITES events, whichever is later (on a loaded machine 3 s
        // once gave 966 writes: a timed test would fail for the machine's load, not for the backend), and never
        // more than a minute past its seconds.
        long cap = deadline + Duration.ofMinutes(1).toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread w = new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while ((System.nanoTime() < deadline || writes.get() <= MIN_WRITES) && System.nanoTime() < cap
                        && failures.size() < 20) {
                    int op = rnd.nextInt(100);
                    int pi = rnd.nextInt(PROVIDERS);
                    int si = rnd.nextInt(SESSIONS);
                    try {
                        if (op < 70) {
                            write(providers.get(pi), rnd);
                        } else if (op < 82) {
                            TraceSession s = sessions.get(si);
                            control(() -> s.enable(providers.get(pi).id(), EnableParameters.builder()
                                    .level(Level.VERBOSE).matchAnyKeyword(rnd.nextBoolean() ? 0x3 : 0x1).build()));
                        } else if (op < 90) {
                            TraceSession s = sessions.get(si);
                            control(() -> s.disable(providers.get(pi).id()));
                        } else if (op < 94) {
                            TraceSession s = sessions.get(si);
                            control(() -> check("during the run", s.statistics()));
                        } else if (op < 97) {
                            synchronized (sessionLocks[si]) {
                                TraceSession old = sessions.get(si);
                                if (rnd.nextBoolean()) {
                                    control(old::flush);
                                }
                                old.close();
                                sessions.set(si, start(old.name()));
                            }
                        } else {
                            synchronized (providerLocks[pi]) {
                                EtwProvider old = providers.get(pi);
                                old.close();
                                providers.set(pi, EtwProvider.builder(prefix + "provider-" + pi).backend(backend)
                                        .register());
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(Thread.currentThread().getName() + ": " + e);
                    }
                }
            }, "stress-worker-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join(Math.max(1, (cap - System.nanoTime()) / 1_000_000) + 30_000);
            if (w.isAlive()) {
                fail("watchdog: " + w.getName() + " still running 30 s after the cap (deadlock?)\n" + threadDump());
            }
        }
        assertEquals(List.of(), new ArrayList<>(failures), "exceptions in the workers");

        // Quiescent: flush, let consumers drain, then every session's counters must add up.
        for (int i = 0; i < SESSIONS; i++) {
            TraceSession s = sessions.get(i);
            s.flush();
        }
        for (int i = 0; i < SESSIONS; i++) {
            TraceSession s = sessions.get(i);
            check("after the run", awaitSettled(s));
            s.close();
            assertTrue(!s.isRunning(), s + " still running after close");
        }
        for (int i = 0; i < PROVIDERS; i++) {
            providers.get(i).close();
        }
        for (SessionInfo info : backend.querySessions()) {
            assertTrue(!names.contains(info.name()), "session left running after close: " + info.name());
        }
        for (Thread c : consumerThreads) {
            c.join(10_000);
            assertTrue(!c.isAlive(), c.getName() + " did not end after its session stopped");
        }
        for (TraceConsumer c : consumers) {
            c.close(); // CloseTrace after ProcessTrace returned, as on Windows
        }
        assertEquals(List.of(), new ArrayList<>(failures), "consumer errors");
        assertTrue(writes.get() > MIN_WRITES, "the run wrote " + writes.get() + " events");
        assertTrue(delivered.get() > 0, "consumers received events");
        assertTrue(snapshots.get() > 0, "statistics were checked during the run");
        System.out.printf("%s stress: %d writes, %d delivered, %d snapshots checked, %d control calls refused%n",
                backend.name(), writes.get(), delivered.get(), snapshots.get(), controlRefusals.get());
    }

    private TraceSession start(String name) {
        TraceSession s = TraceSession.start(SessionConfig.realTime(name).bufferSizeKb(4).buffers(2, 8)
                .flushTimer(Duration.ofSeconds(1)).build(), backend);
        names.add(name);
        TraceConsumer c = backend.openRealTime(name, new RecordSink() {
            @Override
            public void onRecord(RawEventRecord record) {
                delivered.incrementAndGet();
            }

            @Override
            public void onLost(long eventCount, long buffers) {
            }

            @Override
            public void onError(Throwable error) {
                failures.add("consumer of " + name + ": " + error);
            }
        });
        consumers.add(c);
        Thread t = new Thread(c::process, "stress-consumer-" + name);
        t.setDaemon(true);
        consumerThreads.add(t);
        t.start();
        return s;
    }

    private void write(EtwProvider p, ThreadLocalRandom rnd) {
        int status;
        if (rnd.nextBoolean()) {
            status = p.write(MANIFEST_EVENT, new EventData().add(new byte[rnd.nextInt(1, 200)]));
        } else {
            status = p.event(TL_EVENT).int32(rnd.nextInt()).string("stress").write();
        }
        writes.incrementAndGet();
        // No free buffer, or a provider another thread just closed: statuses, as documented, never exceptions.
        if (status != 0 && status != Win32Error.ERROR_NOT_ENOUGH_MEMORY.code()
                && status != Win32Error.ERROR_INVALID_HANDLE.code()) {
            failures.add("write returned " + status);
        }
    }

    private void control(Runnable r) {
        try {
            r.run();
        } catch (EtwException | IllegalStateException refused) {
            // A session or provider another thread just stopped or closed: a typed refusal is the contract.
            controlRefusals.incrementAndGet();
        }
    }

    private void check(String when, SessionStatistics s) {
        snapshots.incrementAndGet();
        if (!sessionsReportEventCounts()) {
            // What EVENT_TRACE_PROPERTIES carries is all a Windows backend may claim.
            if (s.reportsEventCounts() || s.eventsLost() < 0 || s.buffersWritten() < 0) {
                failures.add(when + ": a Windows-shaped snapshot must report lost events and buffers only: " + s);
            }
            return;
        }
        if (!s.reportsEventCounts()) {
            failures.add(when + ": simulated sessions report event counts: " + s);
        } else if (s.eventsAccepted() != s.eventsDelivered() + s.eventsLost() + s.eventsPending()) {
            failures.add(when + ": accepted != delivered + lost + pending in " + s);
        }
    }

    private static SessionStatistics awaitSettled(TraceSession s) throws InterruptedException {
        SessionStatistics st = s.statistics();
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (st.reportsEventCounts() && st.eventsPending() > 0 && System.nanoTime() < end) {
            Thread.sleep(20);
            s.flush();
            st = s.statistics();
        }
        return st;
    }

    private static String threadDump() {
        StringBuilder sb = new StringBuilder();
        for (java.util.Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            sb.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
            for (StackTraceElement f : e.getValue()) {
                sb.append("\tat ").append(f).append('\n');
            }
        }
        return sb.toString();
    }
}
