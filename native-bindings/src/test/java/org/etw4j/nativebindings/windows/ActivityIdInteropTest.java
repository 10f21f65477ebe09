package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.provider.ActivityScope;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.TraceConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 6: activity ids shared with native code on platform threads, as .NET shares them
 * (ActivityTracker -> EventSource.SetCurrentThreadActivityId); kept in Java on virtual threads. "Native code" here
 * is a direct EventActivityIdControl call on the same OS thread, against the stand-in, which keeps the id per OS
 * thread and fills a NULL ActivityId of EventWriteTransfer from it (MS Learn, EventActivityIdControl and
 * EventWriteTransfer: "If NULL, ETW will get the identifier from the thread local storage").
 */
@Tag("standin")
class ActivityIdInteropTest {
    private static final EventDescriptor EVENT = EventDescriptor.of(3, Level.INFORMATIONAL, 1);
    private static final EventDescriptor ACTIVITY = EventDescriptor.of(4, Level.INFORMATIONAL, 1);

    private SimEtwEngine engine;
    private WindowsBackend backend;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    private record Seen(int id, int opcode, Guid activity, Guid related) {
    }

    @BeforeEach
    void setUp() {
        engine = SimEtwEngine.install();
        engine.route(new SimulatedBackend());
        backend = WindowsBackend.create();
    }

    @AfterEach
    void tearDown() throws Exception {
        nativeCodeSets(Guid.NULL);
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
        assertEquals(List.of(), engine.errors(), "the engine's upcalls failed");
    }

    /** What native code on this OS thread would do: EventActivityIdControl(SET_ID). */
    private static void nativeCodeSets(Guid id) {
        control(EtwNative.EVENT_ACTIVITY_CTRL_SET_ID(), id);
    }

    /** What native code on this OS thread would read: EventActivityIdControl(GET_ID). */
    private static Guid nativeCodeReads() {
        return control(EtwNative.EVENT_ACTIVITY_CTRL_GET_ID(), Guid.NULL);
    }

    private static Guid control(int code, Guid in) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(NativeGuids.BYTES, 8);
            NativeGuids.write(g, 0, in);
            assertEquals(0, EtwNative.EventActivityIdControl(code, g));
            return NativeGuids.read(g, 0);
        }
    }

    private List<Seen> capture(EtwProvider p, String name, Runnable writes, int expected) throws Exception {
        TraceSession s = TraceSession.start(SessionConfig.realTime(name).build(), backend);
        cleanup.add(s);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        TraceConsumer c = backend.openRealTime(name, r -> {
            if (r.providerId().equals(p.id())) {
                java.nio.ByteBuffer rel = r.extendedDataOfType(org.etw4j.format.EventHeaderLayout.EXT_RELATED_ACTIVITYID);
                seen.add(new Seen(r.id(), r.opcode(), r.activityId(), rel == null ? Guid.NULL : Guid.readFrom(rel, 0)));
            }
        });
        cleanup.add(c);
        Thread pump = new Thread(c::process, "interop-consumer");
        pump.setDaemon(true);
        pump.start();
        s.enable(p.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofSeconds(10)));
        writes.run();
        s.flush();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.size() < expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        return List.copyOf(seen);
    }

    @Test
    void onAPlatformThreadEventsCarryTheIdNativeCodeSetAndNativeCodeSeesEtw4jActivities() throws Exception {
        // Failed before: every write passed an explicit id (GUID_NULL outside activities), so the id native code
        // set was overridden, and an etw4j activity never reached the OS thread's id.
        EtwProvider p = EtwProvider.builder("etw4j-interop-" + UUID.randomUUID()).backend(backend).register();
        cleanup.add(p);
        Guid nativeId = Guid.of(UUID.randomUUID());
        List<Guid> seenByNative = new ArrayList<>();
        Guid[] activity = new Guid[1];
        List<Seen> seen = capture(p, "interop-platform-" + UUID.randomUUID(), () -> {
            nativeCodeSets(nativeId);
            p.write(EVENT, new EventData());
            try (ActivityScope scope = p.startActivity(ACTIVITY)) {
                activity[0] = scope.activityId();
                seenByNative.add(nativeCodeReads());
                p.write(EVENT, new EventData());
            }
            seenByNative.add(nativeCodeReads());
        }, 4);
        assertEquals(List.of(activity[0], nativeId), seenByNative, "native code sees the activity, then its own id again");
        assertEquals(List.of(
                new Seen(3, 0, nativeId, Guid.NULL),
                new Seen(4, 1, activity[0], nativeId), // START: the native id is the parent
                new Seen(3, 0, activity[0], Guid.NULL),
                new Seen(4, 2, activity[0], Guid.NULL)), seen);
    }

    @Test
    void aVirtualThreadsActivityNeverTouchesItsCarriersId() throws Exception {
        EtwProvider p = EtwProvider.builder("etw4j-interop-vt-" + UUID.randomUUID()).backend(backend).register();
        cleanup.add(p);
        List<Guid> carrierIds = new CopyOnWriteArrayList<>();
        Guid[] activity = new Guid[1];
        List<Seen> seen = capture(p, "interop-virtual-" + UUID.randomUUID(), () -> {
            Thread vt = Thread.ofVirtual().start(() -> {
                try (ActivityScope scope = p.startActivity(ACTIVITY)) {
                    activity[0] = scope.activityId();
                    carrierIds.add(nativeCodeReads());
                    p.write(EVENT, new EventData());
                }
            });
            try {
                assertTrue(vt.join(Duration.ofSeconds(10)));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, 3);
        assertEquals(List.of(Guid.NULL), carrierIds, "the carrier's ETW id was left alone");
        assertEquals(List.of(activity[0], activity[0], activity[0]), seen.stream().map(Seen::activity).toList());
    }
}
