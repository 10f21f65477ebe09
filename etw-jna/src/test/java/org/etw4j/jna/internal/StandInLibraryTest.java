package org.etw4j.jna.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Memory;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.TraceSession;
import org.etw4j.format.FilterHeaderChain;
import org.etw4j.sim.SimulatedBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stand-in library itself (etw_standin.c): its layouts, its forwarding, its no-engine and no-op modes.
 */
class StandInLibraryTest {
    private SimEngine engine;
    private StandIn.Exports lib;

    @BeforeEach
    void setUp() {
        engine = SimEngine.install();
        lib = StandIn.exports();
    }

    @AfterEach
    void tearDown() {
        SimEngine.install();
        engine.noopWrites(false);
        assertEquals(List.of(), engine.errors());
    }

    @Test
    void windowsStructureSizesAreTheEvntprovOnes() {
        assertEquals(16, lib.EtwStandIn_SizeOf("GUID"));
        assertEquals(16, lib.EtwStandIn_SizeOf("EVENT_DESCRIPTOR"));
        assertEquals(16, lib.EtwStandIn_SizeOf("EVENT_DATA_DESCRIPTOR"));
        assertEquals(16, lib.EtwStandIn_SizeOf("EVENT_FILTER_DESCRIPTOR"));
        assertEquals(FilterHeaderChain.HEADER_BYTES, lib.EtwStandIn_SizeOf("EVENT_FILTER_HEADER"));
        assertEquals(0, lib.EtwStandIn_SizeOf("NO_SUCH_STRUCT"));
        assertEquals(WriteStaging.BLOCK_DESCRIPTOR_BYTES, lib.EtwStandIn_SizeOf("EVENT_DATA_DESCRIPTOR"));
    }

    @Test
    void theJavaEngineTableHasTheCLayout() {
        assertEquals(1, lib.EtwStandIn_EngineVersion());
        assertEquals(256, lib.EtwStandIn_EngineSize());
        StandInEngineTable t = engine.table();
        for (String field : t.fieldNames()) {
            assertEquals(lib.EtwStandIn_EngineOffsetOf(field), t.offsetOf(field), field);
        }
        assertEquals(88, t.size(), "Size covers the provider entries only");
        assertEquals(88, lib.EtwStandIn_EngineOffsetOf("StartTraceW"), "controller entries start right after them");
        assertEquals(-1, lib.EtwStandIn_EngineOffsetOf("NoSuchFunction"));
    }

    @Test
    void withoutAnEngineEveryFunctionSaysNotSupportedInsteadOfCrashing() {
        engine.uninstall();
        assertEquals(0, lib.EtwStandIn_IsInstalled());
        Memory descriptor = new Memory(16);
        descriptor.clear();
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.EventWriteTransfer(1, descriptor, null, null, 0, null));
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.EventWrite(1, descriptor, 0, null));
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.EventUnregister(1));
        assertEquals(0, lib.EventProviderEnabled(1, (byte) 5, 0), "BOOLEAN functions say FALSE");
        assertEquals(0, lib.EventEnabled(1, descriptor));
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.StartTraceW(new Memory(8), null, null));
        assertEquals(-1L, lib.OpenTraceW(null), "INVALID_PROCESSTRACE_HANDLE");
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.TdhGetEventInformation(null, 0, null, null, null));
        SimEngine.install();
        assertEquals(1, lib.EtwStandIn_IsInstalled());
    }

    @Test
    void entriesTheEngineLeavesOutAreNotSupported() {
        // The Java engine fills only the provider entries (Size = 88): the controller ones read as NULL.
        assertEquals(1, lib.EtwStandIn_IsInstalled());
        assertEquals(Win32Error.ERROR_NOT_SUPPORTED.code(), lib.StartTraceW(new Memory(8), null, null));
        assertEquals(-1L, lib.OpenTraceW(null));
    }

    @Test
    void eventEnabledAndEventProviderEnabledForwardToTheEngine() {
        SimulatedBackend sim = new SimulatedBackend();
        engine.route(sim);
        JnaEtwBackend jna = new JnaEtwBackend();
        Guid id = new Guid(0x51_0000L, 0x42L);
        try (JnaRegistration r = (JnaRegistration) jna.registerProvider(id, (c, s, l, a, al, f) -> { });
             TraceSession s = TraceSession.start(SessionConfig.realTime("standin-enabled").build(), sim)) {
            assertEquals(0, lib.EventProviderEnabled(r.handle(), (byte) 1, 0));
            s.enable(id, EnableParameters.of(Level.WARNING, 0x2).withCallbackWait(java.time.Duration.ofSeconds(10)));
            assertEquals(1, lib.EventProviderEnabled(r.handle(), (byte) Level.WARNING.value(), 0x2));
            assertEquals(0, lib.EventProviderEnabled(r.handle(), (byte) Level.VERBOSE.value(), 0x2));
            Memory d = new Memory(16);
            byte[] bytes = new byte[16];
            EventDescriptor.of(1, Level.ERROR, 0x4).writeTo(bytes, 0);
            d.write(0, bytes, 0, 16);
            assertEquals(0, lib.EventEnabled(r.handle(), d), "keyword 4 is not enabled");
            EventDescriptor.of(1, Level.ERROR, 0x2).writeTo(bytes, 0);
            d.write(0, bytes, 0, 16);
            assertEquals(1, lib.EventEnabled(r.handle(), d));
        }
    }

    @Test
    void noopWritesReturnAtOnceWithoutReachingTheEngine() {
        Memory descriptor = new Memory(16);
        descriptor.clear();
        long before = engine.writes();
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), lib.EventWriteTransfer(0xBAD, descriptor, null, null, 0, null),
                "the engine knows no such handle");
        assertEquals(before + 1, engine.writes());
        engine.noopWrites(true);
        assertEquals(0, lib.EventWriteTransfer(0xBAD, descriptor, null, null, 0, null));
        assertEquals(0, lib.EventWrite(0xBAD, descriptor, 0, null));
        assertEquals(0, lib.EventWriteEx(0xBAD, descriptor, 0, 0, null, null, 0, null));
        assertEquals(0L, lib.EtwStandIn_WriteTransferLoop(1_000, 0xBAD, descriptor, null, null, 0, null));
        assertEquals(before + 1, engine.writes(), "no write reached the engine");
        engine.noopWrites(false);
        assertEquals(500L, lib.EtwStandIn_WriteTransferLoop(500, 0xBAD, descriptor, null, null, 0, null),
                "every call of the C loop went through the engine and failed");
        assertEquals(before + 501, engine.writes());
        assertEquals(0, lib.EtwStandIn_EventWriteTransferNoop(0xBAD, descriptor, null, null, 0, null));
    }
}
