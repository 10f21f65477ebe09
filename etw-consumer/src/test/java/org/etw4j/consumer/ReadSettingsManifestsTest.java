package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.etw4j.Guid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadSettings#manifestProviders()}: what the CLI lists and checks `--provider` names against. The providers
 * of every manifest the settings name, in the order the manifests were given (a manifest's own providers in document
 * order), each with its GUID as written and its number of events; a manifest that cannot be read is a
 * {@link ReadSetupException} naming it.
 */
class ReadSettingsManifestsTest {

    private static final Guid A = Guid.parse("9e1a4a5c-0d6b-4f3e-8c41-1b2c3d4e5f60");
    private static final Guid B1 = Guid.parse("5b7f1e22-77aa-4c0d-9e3b-a1b2c3d4e5f6");
    private static final Guid B2 = Guid.parse("0f0e0d0c-0b0a-4908-8706-050403020100");

    /** A manifest of the given providers, each with {@code events} events of one template (id 1, 2, ...). */
    private static String manifest(Object... nameGuidEvents) {
        StringBuilder x = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
                    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
                  <instrumentation><events>
                """);
        for (int p = 0; p < nameGuidEvents.length; p += 3) {
            x.append("<provider name=\"").append(nameGuidEvents[p]).append("\" guid=\"{").append(nameGuidEvents[p + 1])
                    .append("}\" symbol=\"P").append(p).append("\" resourceFileName=\"x.dll\" messageFileName=\"x.dll\">")
                    .append("<templates><template tid=\"T\"><data name=\"Value\" inType=\"win:UInt32\"/></template>")
                    .append("</templates><events>");
            for (int e = 1; e <= (Integer) nameGuidEvents[p + 2]; e++) {
                x.append("<event value=\"").append(e).append("\" version=\"0\" level=\"win:Informational\" template=\"T\"")
                        .append(" symbol=\"E").append(e).append("\"/>");
            }
            x.append("</events></provider>");
        }
        return x.append("</events></instrumentation></instrumentationManifest>\n").toString();
    }

    @Test
    void theProvidersOfEveryManifestInTheOrderGiven(@TempDir Path dir) throws Exception {
        Path second = dir.resolve("second.man");
        Files.writeString(second, manifest("Test-B1", B1, 1, "Test-B2", B2, 3));
        ReadSettings settings = ReadSettings.builder()
                .manifest(manifest("Test-A", A, 2).getBytes(StandardCharsets.UTF_8))
                .manifest(second)
                .build();
        assertEquals(List.of(new ReadSettings.ManifestProvider(A, "Test-A", 2),
                new ReadSettings.ManifestProvider(B1, "Test-B1", 1),
                new ReadSettings.ManifestProvider(B2, "Test-B2", 3)), settings.manifestProviders());
        assertEquals(List.of(), ReadSettings.DEFAULT.manifestProviders(), "no manifests, no providers");
    }

    @Test
    void aManifestThatCannotBeReadIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("missing.man");
        ReadSetupException e = assertThrows(ReadSetupException.class,
                () -> ReadSettings.builder().manifest(missing).build().manifestProviders());
        assertTrue(e.getMessage().contains("missing.man"), e.getMessage());
        ReadSetupException bad = assertThrows(ReadSetupException.class,
                () -> ReadSettings.builder().manifest("<not a manifest".getBytes(StandardCharsets.UTF_8)).build()
                        .manifestProviders());
        assertTrue(bad.getMessage().contains("manifest (15 bytes)"), "names the manifest given as bytes: "
                + bad.getMessage());
        ReadSetupException resource = assertThrows(ReadSetupException.class,
                () -> ReadSettings.builder().manifestResource(getClass().getClassLoader(), "no/such.man").build()
                        .manifestProviders());
        assertTrue(resource.getMessage().contains("classpath:no/such.man"), resource.getMessage());
    }
}
