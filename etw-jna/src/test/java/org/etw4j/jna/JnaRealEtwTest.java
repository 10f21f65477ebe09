package org.etw4j.jna;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.jna.internal.Advapi32;
import org.etw4j.jna.internal.JnaEtwBackend;
import org.etw4j.provider.EventData;
import org.etw4j.spi.ProviderRegistration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JNA backend against Windows' own advapi32 (issue 21, item 14): on Java 17, the JVM etw-jna exists for, a
 * provider registered through JNA is enabled by a session Windows' own controller starts ({@code logman start -p
 * {GUID} keywords level -ets}), its callback receives the values logman asked for, an event written through JNA
 * lands in the session's .etl file, and stopping the session disables the provider.
 *
 * <p>Windows only (skipped elsewhere); it has never run on this project's Linux machines. The Windows workflow
 * runs it first and fails when it skipped. Sessions are named {@code etw4j-jna-<uuid>} so the workflow's
 * clean-up step finds any a killed run leaves.
 */
@EnabledOnOs(OS.WINDOWS)
class JnaRealEtwTest {
    private record Notification(int controlCode, int level, long any, long all) {
    }

    @Test
    void aLogmanSessionEnablesAJnaProviderAndReceivesItsEvent(@TempDir Path dir) throws Exception {
        assertTrue(Advapi32.isSystemLibrary(), "bound " + Advapi32.configuredLibrary() + ", not advapi32");
        Guid provider = Guid.of(UUID.randomUUID());
        String session = "etw4j-jna-" + UUID.randomUUID();
        Path etl = dir.resolve("jna.etl");
        BlockingQueue<Notification> seen = new LinkedBlockingQueue<>();
        JnaEtwBackend jna = new JnaEtwBackend();
        try (ProviderRegistration reg = jna.registerProvider(provider,
                (code, source, level, any, all, filters) -> seen.add(new Notification(code, level, any, all)))) {
            int started = logman("start", session, "-p", provider.toBracedString(), "0x0f", "4", "-o",
                    etl.toString(), "-ets");
            // logman exits with the HRESULT: E_ACCESSDENIED (0x80070005) without elevation.
            Assumptions.assumeTrue(started != 5 && started != (int) 0x80070005L,
                    "logman start: access denied (the test needs elevation)");
            assertEquals(0, started, "logman start");
            try {
                // EnableTraceEx2 (what logman calls) notifies the provider on its process's notification thread.
                Notification enabled = seen.poll(10, TimeUnit.SECONDS);
                assertEquals(new Notification(1, 4, 0x0fL, 0L), enabled, "EVENT_CONTROL_CODE_ENABLE_PROVIDER");
                byte[] marker = ("etw4j-jna-" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_16LE);
                int status = reg.write(EventDescriptor.of(7, Level.INFORMATIONAL, 0x1), Guid.NULL, null,
                        new EventData().add(marker));
                assertEquals(0, status, "EventWrite");
                assertEquals(0, logman("stop", session, "-ets"), "logman stop");
                session = null;
                Notification disabled = seen.poll(10, TimeUnit.SECONDS);
                assertEquals(0, disabled == null ? -1 : disabled.controlCode(), "EVENT_CONTROL_CODE_DISABLE_PROVIDER");
                byte[] file = Files.readAllBytes(etl);
                assertTrue(indexOf(file, provider.toWindowsBytes()) >= 0, "the provider's GUID is in the .etl");
                assertTrue(indexOf(file, marker) >= 0, "the payload written through JNA is in the .etl");
            } finally {
                if (session != null) {
                    logman("stop", session, "-ets");
                }
            }
        }
    }

    private static int logman(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("logman"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        System.out.println(String.join(" ", command) + " -> " + code + ": " + out.strip());
        return code;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
