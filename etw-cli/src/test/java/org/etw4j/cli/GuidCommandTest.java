package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code etw guid}. */
class GuidCommandTest {

    @Test
    void myProvider() {
        // The value .NET EventSource and TraceLogging give "MyProvider" (etw-formats.md section 2).
        Cli.Result r = Cli.run("guid", "MyProvider");
        assertEquals(0, r.code(), r.toString());
        assertEquals(List.of("b3864c38-4273-58c5-545b-8b3608343471"), r.outLines());
        assertEquals("", r.err());
    }

    @Test
    void caseDoesNotMatter() {
        assertEquals(Cli.run("guid", "MyProvider").out(), Cli.run("guid", "MYPROVIDER").out());
    }

    @Test
    void severalNamesAreLabelled() {
        Cli.Result r = Cli.run("guid", "MyProvider", "etw4j-Demo");
        assertEquals(0, r.code());
        assertEquals(List.of("b3864c38-4273-58c5-545b-8b3608343471  MyProvider",
                "71a96c8e-d1b1-56ac-e403-71184b715bdb  etw4j-Demo"), r.outLines());
    }

    @Test
    void demoManifestDeclaresTheDerivedGuid() throws Exception {
        assertEquals(DemoEvents.PROVIDER_ID, DemoEvents.loadManifest().guid());
        assertEquals(List.of(DemoEvents.PROVIDER_ID.toString()), Cli.run("guid", DemoEvents.PROVIDER_NAME).outLines());
    }
}
