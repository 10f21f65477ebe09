package org.etw4j.tracelogging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.etw4j.Guid;
import org.junit.jupiter.api.Test;

/** Every vector of etw-formats.md section 2 (all recomputed there [V]); each row names its source. */
class ProviderIdsTest {

    private static void check(String name, String guid) {
        assertEquals(Guid.parse(guid), ProviderIds.fromName(name), name);
    }

    @Test
    void myProviderInAnyCase() {
        // TL-Rust guid.rs doc-test; TL-Py test L50-57; TL-CS Program.cs L183-185.
        check("MyProvider", "b3864c38-4273-58c5-545b-8b3608343471");
        check("MYPROVIDER", "b3864c38-4273-58c5-545b-8b3608343471");
        check("myprovider", "b3864c38-4273-58c5-545b-8b3608343471");
    }

    @Test
    void tracingLibraryTestVectors() {
        check("TestProvider", "97c801ee-c28b-5bb6-2ae4-11e18fe6137a"); // TL-Py test L70
        check("wincni", "c822b598-f4cc-5a72-7933-ce2a816d033f"); // go-winio provider_test.go L27
        check("Moby", "6996f090-c5de-5082-a81e-5841acc3a635"); // go-winio provider_test.go
        check("ContainerD", "2acb92c0-eb9b-571a-69cf-8f3410f383ad"); // go-winio provider_test.go
        check("Microsoft.Virtualization.RunHCS", "0b52781f-b24d-5685-ddf6-69830ed40ec3"); // go-winio provider_test.go L30
        check("sample", "73e5f193-d48c-5cd7-6eed-84fbce74000f"); // computed only (etw-formats.md 2)
    }

    @Test
    void realEventSourceProviders() {
        // .NET RuntimeEventSource [EventSource(Guid="49592C0F-...", Name="System.Runtime")]
        check("System.Runtime", "49592c0f-5a05-516d-aa4b-a64e02026c89");
        // PerfView src/PerfView/CommandProcessor.cs L773, L779, L782
        check("Microsoft-Diagnostics-DiagnosticSource", "adb401e1-5296-51f8-c125-5fda75826144");
        check("Microsoft-AspNetCore-Hosting", "9e620d2a-55d4-5ade-deb7-c26046d245a8");
        check("Microsoft-ApplicationInsights-Core", "74af9f20-af6a-5582-9382-f21f674fb271");
        // the real Windows AMSI provider GUID (widely published, e.g. Velociraptor AMSI artifact)
        check("Microsoft-Antimalware-Scan-Interface", "2a576b87-09a7-520e-c21a-4942f0271d67");
    }

    @Test
    void manifestProvidersDoNotUseTheNameHash() {
        // Negative check (etw-formats.md 2): the hash of the CLR provider's name is NOT its manifest GUID.
        Guid hashed = ProviderIds.fromName("Microsoft-Windows-DotNETRuntime");
        assertEquals(Guid.parse("5e5bb766-bbfc-5662-0548-1d44fad9bb56"), hashed);
        assertNotEquals(Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), hashed);
        // Likewise Windows TraceLogging providers with explicit GUIDs (ServiceControlManager -> b8ddcea7-...).
        assertNotEquals(Guid.parse("b8ddcea7-b520-4909-bceb-e0170c9f0e99"),
                ProviderIds.fromName("Microsoft.Windows.ServiceControlManager"));
    }

    @Test
    void upperCasingIsPerUtf16UnitLikeDotNet() {
        // 'ß' has no single-unit upper case: .NET ToUpperInvariant keeps it, String.toUpperCase would give "SS".
        assertNotEquals(ProviderIds.fromName("Straße"), ProviderIds.fromName("STRASSE"));
        assertEquals(ProviderIds.fromName("straße"), ProviderIds.fromName("STRAßE"));
        assertEquals(ProviderIds.fromName("é"), ProviderIds.fromName("É"));
        // Every GUID has the version nibble 5 as first digit of the third group.
        assertEquals('5', ProviderIds.fromName("anything at all").toString().charAt(14));
        // The leading '*' of PerfView's command-line syntax is not stripped.
        assertNotEquals(ProviderIds.fromName("MyProvider"), ProviderIds.fromName("*MyProvider"));
    }

    @Test
    void emptyNamesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> ProviderIds.fromName(""));
        assertThrows(IllegalArgumentException.class, () -> ProviderIds.fromName(null));
    }
}
