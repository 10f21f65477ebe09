package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.tracelogging.ProviderIds;
import org.junit.jupiter.api.Test;

/** Issue 21, item 2: names resolve against the machine's registered providers, then given manifests, then the hash. */
class ProviderResolutionTest {
    /** Microsoft-Windows-Kernel-Process, as Windows registers it (its manifest; e.g. `logman query providers`). */
    static final Guid KERNEL_PROCESS = Guid.parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");
    /** Microsoft-Windows-DotNETRuntime, as ClrEtwAll.man declares it. */
    static final Guid DOTNET_RUNTIME = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    @Test
    void theRulesInOrderAndTheirNames() {
        Map<String, Guid> registered = Map.of("Microsoft-Windows-Kernel-Process", KERNEL_PROCESS);
        Map<String, Guid> manifests = Map.of("Microsoft-Windows-DotNETRuntime", DOTNET_RUNTIME,
                "Microsoft-Windows-Kernel-Process", Guid.parse("00000000-0000-0000-0000-000000000001"));

        ProviderResolution guid = ProviderResolution.resolve(" {22FB2CD6-0E7B-422B-A0C7-2FAD1FD0E716} ", registered, manifests);
        assertEquals(new ProviderResolution("{22FB2CD6-0E7B-422B-A0C7-2FAD1FD0E716}", KERNEL_PROCESS,
                ProviderResolution.Rule.GUID, null), guid);

        ProviderResolution reg = ProviderResolution.resolve("microsoft-windows-kernel-process", registered, manifests);
        assertEquals(KERNEL_PROCESS, reg.id(), "the machine's registration wins over a manifest, ignoring case");
        assertEquals(ProviderResolution.Rule.REGISTERED, reg.rule());
        assertEquals("provider microsoft-windows-kernel-process -> 22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716"
                + " (registered on this machine)", reg.describe());
        assertNull(reg.warning());

        ProviderResolution man = ProviderResolution.resolve("Microsoft-Windows-DotNETRuntime", registered, manifests);
        assertEquals(new ProviderResolution("Microsoft-Windows-DotNETRuntime", DOTNET_RUNTIME,
                ProviderResolution.Rule.MANIFEST, null), man);

        ProviderResolution hash = ProviderResolution.resolve("MyCompany-MyService", registered, manifests);
        assertEquals(new ProviderResolution("MyCompany-MyService", ProviderIds.fromName("MyCompany-MyService"),
                ProviderResolution.Rule.NAME_HASH, null), hash);
        assertThrows(IllegalArgumentException.class, () -> ProviderResolution.resolve(" ", registered, manifests));
    }

    @Test
    void anUnregisteredWindowsNameIsHashedWithAWarning() {
        ProviderResolution r = ProviderResolution.resolve("Microsoft-Windows-Kernel-Proces", Map.of(), Map.of());
        assertEquals(ProviderResolution.Rule.NAME_HASH, r.rule());
        assertEquals(ProviderIds.fromName("Microsoft-Windows-Kernel-Proces"), r.id());
        assertTrue(r.warning().startsWith("'Microsoft-Windows-Kernel-Proces' is not registered on this machine: its GUID "),
                r.warning());
    }

    @Test
    void aSessionEnablesTheGuidTheSimulatedMachineRegisteredForAName() {
        // Failed before: TraceSession.enable(String) hashed every name, so "Microsoft-Windows-Kernel-Process"
        // enabled ProviderIds.fromName(...), a GUID nobody registered, and a provider of the real GUID stayed off.
        SimulatedBackend sim = new SimulatedBackend();
        sim.installProvider("Microsoft-Windows-Kernel-Process", KERNEL_PROCESS);
        try (EtwProvider kernel = EtwProvider.builder(KERNEL_PROCESS).backend(sim).register();
             TraceSession s = TraceSession.start(SessionConfig.realTime("resolve-by-name").build(), sim)) {
            s.enable("Microsoft-Windows-Kernel-Process", EnableParameters.of(Level.INFORMATIONAL, 0x10)
                    .withCallbackWait(java.time.Duration.ofSeconds(10)));
            assertTrue(kernel.isEnabled(Level.INFORMATIONAL.value(), 0x10));
            assertEquals(ProviderResolution.Rule.REGISTERED,
                    TraceSession.resolve("Microsoft-Windows-Kernel-Process", sim, Map.of()).rule());
        }
        assertEquals(List.of(), List.copyOf(new SimulatedBackend().registeredProviders().keySet()),
                "a new simulated machine has nothing installed");
    }
}
