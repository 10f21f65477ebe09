package org.etw4j.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.etw4j.Guid;
import org.etw4j.tracelogging.ProviderIds;
import org.junit.jupiter.api.Test;

/** Issue 25.3: the table of well-known providers and the resolution rule that uses it off Windows. */
class WellKnownProvidersTest {
    private static final Guid CLR = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    @Test
    void namesTheClrAndKernelProvidersAsTraceEventDoes() {
        assertEquals(Optional.of("Microsoft-Windows-DotNETRuntime"), WellKnownProviders.nameOf(CLR));
        assertEquals(Optional.of("Microsoft-Windows-DotNETRuntimeRundown"),
                WellKnownProviders.nameOf(Guid.parse("a669021c-c450-4609-a035-5af59af4df18")));
        assertEquals(Optional.of("Microsoft-Windows-DotNETRuntimePrivate"),
                WellKnownProviders.nameOf(Guid.parse("763fd754-7086-4dfe-95eb-c01a46faf4ca")));
        assertEquals(Optional.of("Microsoft-Windows-Kernel-Process"),
                WellKnownProviders.nameOf(Guid.parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716")));
        Guid perfInfo = Guid.parse("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc");
        assertEquals(Optional.of("Windows Kernel"), WellKnownProviders.nameOf(perfInfo));
        assertEquals(Optional.of("PerfInfo"), WellKnownProviders.kernelGroupOf(perfInfo));
        assertEquals(Optional.empty(), WellKnownProviders.kernelGroupOf(CLR));
        assertEquals(Optional.empty(), WellKnownProviders.nameOf(ProviderIds.fromName("MyCompany-MyService")));
    }

    @Test
    void everyNameResolvesToAGuidThatCarriesIt() {
        for (Map.Entry<Guid, String> e : WellKnownProviders.all().entrySet()) {
            Guid id = WellKnownProviders.idOf(e.getValue()).orElseThrow();
            assertEquals(e.getValue(), WellKnownProviders.nameOf(id).orElseThrow(), e.toString());
            assertEquals(id, WellKnownProviders.idOf(e.getValue().toUpperCase(java.util.Locale.ROOT)).orElseThrow());
        }
        assertEquals(Guid.parse("9e814aad-3204-11d2-9a82-006008a86939"), WellKnownProviders.idOf("Windows Kernel").orElseThrow());
    }

    @Test
    void resolutionUsesTheTableAfterTheMachineAndTheManifests() {
        // Failed before: off Windows, "Microsoft-Windows-DotNETRuntime" without its manifest was hashed (with a warning)
        ProviderResolution r = ProviderResolution.resolve("microsoft-windows-dotnetruntime", Map.of(), Map.of());
        assertEquals(new ProviderResolution("microsoft-windows-dotnetruntime", CLR, ProviderResolution.Rule.WELL_KNOWN,
                null), r);
        Guid other = Guid.parse("11111111-2222-3333-4444-555555555555");
        assertEquals(ProviderResolution.Rule.REGISTERED,
                ProviderResolution.resolve("Microsoft-Windows-DotNETRuntime", Map.of("Microsoft-Windows-DotNETRuntime",
                        other), Map.of()).rule(), "what the machine registers wins");
        assertEquals(other, ProviderResolution.resolve("Microsoft-Windows-DotNETRuntime", Map.of(),
                Map.of("Microsoft-Windows-DotNETRuntime", other)).id(), "a given manifest wins");
        assertNull(r.warning());
    }
}
