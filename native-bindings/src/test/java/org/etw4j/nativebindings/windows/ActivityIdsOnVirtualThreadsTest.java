package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.EtwBackend;
import org.etw4j.RawEventRecord;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Activity ids on virtual threads (issue 9 defect 2): many virtual threads park inside {@link ActivityScope}s and
 * write events that name no activity id; every event must carry its own thread's activity, and a thread without one
 * GUID_NULL. ETW keeps EventActivityIdControl's id per OS thread, i.e. per carrier (the stand-in models it in C,
 * etw_standin_activity.h): a backend that left the id there would lose it when a virtual thread resumes on another
 * carrier and leak it to the next virtual thread on the old one. Run over the FFM backend (stand-in) and over the
 * simulated backend.
 */
@Tag("standin")
class ActivityIdsOnVirtualThreadsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int THREADS = 200;
    private static final int WRITES_PER_THREAD = 6;
    private static final EventDescriptor STEP = EventDescriptor.of(2, Level.INFORMATIONAL, 1);
    private static final EventDescriptor ACTIVITY = EventDescriptor.of(1, Level.INFORMATIONAL, 1);

    private SimEtwEngine engine;
    private SimulatedBackend machine;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void setUp() {
        engine = SimEtwEngine.install();
        machine = new SimulatedBackend();
        engine.route(machine);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
    }

    @Test
    void ffmBackend() throws Exception {
        everyEventCarriesItsOwnVirtualThreadsActivityId(WindowsBackend.create(), "ffm");
    }

    @Test
    void simulatedBackend() throws Exception {
        everyEventCarriesItsOwnVirtualThreadsActivityId(machine, "sim");
    }

    /** An event as recorded: writer thread index, step, opcode, activity id. */
    private record Seen(int thread, int step, int opcode, Guid activity) {
    }

    private void everyEventCarriesItsOwnVirtualThreadsActivityId(EtwBackend backend, String name) throws Exception {
        EtwProvider provider = EtwProvider.builder("etw4j-vt-activity-" + name).backend(backend).register();
        cleanup.add(provider);
        // The session and its consumer live on the simulated machine itself: the events reach it through the
        // backend under test (for FFM: EventWriteTransfer into the stand-in, routed to this machine).
        SessionControl session = machine.startSession(SessionConfig.realTime("etw4j-vt-activity-" + name).build());
        cleanup.add(session::stop);
        session.enableProvider(provider.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(WAIT));
        List<Seen> seen = new CopyOnWriteArrayList<>();
        TraceConsumer consumer = machine.openRealTime(session.name(), new RecordSink() {
            @Override
            public void onRecord(RawEventRecord r) {
                if (r.providerId().equals(provider.id()) && r.id() == STEP.id()) {
                    ByteBuffer b = r.userData().duplicate().order(ByteOrder.LITTLE_ENDIAN);
                    seen.add(new Seen(b.getInt(0), b.getInt(4), r.opcode(), r.activityId()));
                }
            }
        });
        cleanup.add(consumer);
        Thread pump = new Thread(consumer::process, "vt-consumer-" + name);
        pump.setDaemon(true);
        pump.start();

        Map<Integer, Guid> activityOf = new ConcurrentHashMap<>();
        List<Future<?>> done = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    if (thread % 4 == 3) { // no activity: every event must carry GUID_NULL, never a neighbour's id
                        activityOf.put(thread, Guid.NULL);
                        steps(provider, thread);
                        return;
                    }
                    try (ActivityScope scope = provider.startActivity(ACTIVITY)) {
                        activityOf.put(thread, scope.activityId());
                        steps(provider, thread);
                    }
                    write(provider, thread, WRITES_PER_THREAD); // after the scope: the previous id (GUID_NULL) again
                }));
            }
        }
        for (Future<?> f : done) {
            f.get();
        }
        int expected = THREADS * WRITES_PER_THREAD + (THREADS - THREADS / 4);
        session.flush();
        long end = System.nanoTime() + WAIT.toNanos();
        while (seen.size() < expected) {
            if (System.nanoTime() > end) {
                fail("only " + seen.size() + " of " + expected + " events arrived");
            }
            Thread.sleep(5);
        }
        List<String> wrong = new ArrayList<>();
        for (Seen e : seen) {
            Guid want = e.step() == WRITES_PER_THREAD ? Guid.NULL : activityOf.get(e.thread());
            if (!want.equals(e.activity())) {
                wrong.add("thread " + e.thread() + " step " + e.step() + ": " + e.activity() + " instead of " + want);
            }
        }
        assertEquals(expected, seen.size());
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + expected + " events carried another activity id, e.g. "
                + wrong.subList(0, Math.min(5, wrong.size())));
        assertEquals(Guid.NULL, provider.activityIds().get(), "the test thread never had an activity");
    }

    /** Writes steps 0..n-1, parking between them so the virtual thread may resume on another carrier. */
    private static void steps(EtwProvider provider, int thread) {
        for (int step = 0; step < WRITES_PER_THREAD; step++) {
            if (step % 2 == 0) {
                LockSupport.parkNanos(200_000);
            } else {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            write(provider, thread, step);
        }
    }

    private static void write(EtwProvider provider, int thread, int step) {
        byte[] payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(thread).putInt(step).array();
        int status = provider.write(STEP.withOpcode(Opcode.INFO.value()), new EventData().add(payload));
        if (status != 0) {
            throw new AssertionError("write failed with status " + status);
        }
    }
}
