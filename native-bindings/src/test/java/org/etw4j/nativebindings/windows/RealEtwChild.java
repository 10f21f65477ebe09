package org.etw4j.nativebindings.windows;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.spi.SessionControl;

/**
 * Child processes of {@link RealEtwFidelityTest} (Windows only; never run on this project's Linux machines):
 * behaviours that need a second process. Started with this test JVM's java and class path
 * ({@link #command}); each prints facts as lines, flushed at once, which the parent asserts.
 *
 * <ul>
 *   <li>{@code slow-callback GUID MILLIS}: registers {@code GUID} with a native enable callback that takes
 *       {@code MILLIS} ms (an upcall that sleeps, so ETW's notification thread in this process is held), prints
 *       {@code REGISTERED}, then {@code CALLBACK code level} and {@code CALLBACK-END} per notification, and exits
 *       when its standard input closes.</li>
 *   <li>{@code private-session DIR OUT}: the non-elevated half of issue 21, item 10 (started through {@code runas
 *       /trustlevel:0x20000}, whose output is not ours, hence {@code OUT}): whether a normal session may start
 *       ({@code NORMAL-SESSION-DENIED} without elevation), then a private in-process file session in {@code DIR}
 *       with 100 numbered events of a provider registered here ({@code PRIVATE-OK GUID PID} or
 *       {@code PRIVATE-FAILED message}), then {@code END}.</li>
 * </ul>
 */
public final class RealEtwChild {
    private RealEtwChild() {
    }

    /** The command that starts this class with {@code args} on this JVM's java, class path and native access. */
    static List<String> command(String... args) {
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command().orElseThrow());
        c.add("--enable-native-access=ALL-UNNAMED");
        c.add("-cp");
        c.add(JnaChildProcess.classPath());
        c.add(RealEtwChild.class.getName());
        c.addAll(List.of(args));
        return c;
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "slow-callback" -> slowCallback(Guid.parse(args[1]), Long.parseLong(args[2]));
            case "private-session" -> privateSession(Path.of(args[1]), Path.of(args[2]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void slowCallback(Guid id, long millis) throws IOException {
        WindowsBackend backend = WindowsBackend.create();
        try (ProviderRegistration r = backend.registerProvider(id, (code, source, level, any, all, filters) -> {
            System.out.println("CALLBACK " + code + " " + level);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.out.println("CALLBACK-END");
        })) {
            System.out.println("REGISTERED");
            System.in.read(); // the parent closes our input when it is done
        }
    }

    private static void privateSession(Path dir, Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        WindowsBackend backend = WindowsBackend.create();
        try {
            SessionControl normal = backend.startSession(SessionConfig.realTime("etw4j-realetw-child-" + UUID.randomUUID()).build());
            normal.stop();
            lines.add("NORMAL-SESSION-STARTED");
        } catch (EtwException e) {
            lines.add(e.error() == Win32Error.ERROR_ACCESS_DENIED ? "NORMAL-SESSION-DENIED" : "NORMAL-SESSION-ERROR " + e.getMessage());
        }
        try {
            SessionControl s = backend.startSession(SessionConfig.file("etw4j-realetw-private-" + UUID.randomUUID(),
                    dir.resolve("private.etl")).privateInProcess(true).build());
            try (EtwProvider p = EtwProvider.builder("etw4j-realetw-private-" + UUID.randomUUID()).backend(backend).register()) {
                s.enableProvider(p.id(), EnableParameters.of(Level.VERBOSE).withCallbackWait(Duration.ofSeconds(20)));
                for (int i = 0; i < 100; i++) {
                    byte[] payload = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array();
                    p.write(EventDescriptor.of(7, Level.INFORMATIONAL, 1), new EventData().add(payload));
                }
                s.stop();
                lines.add("PRIVATE-OK " + p.id() + " " + ProcessHandle.current().pid());
            }
        } catch (RuntimeException e) {
            lines.add("PRIVATE-FAILED " + e);
        }
        lines.add("END");
        Path part = out.resolveSibling(out.getFileName() + ".part");
        Files.write(part, lines, StandardCharsets.UTF_8);
        Files.move(part, out, java.nio.file.StandardCopyOption.ATOMIC_MOVE); // the parent never reads half of it
        try (PrintStream ps = System.out) {
            lines.forEach(ps::println);
        }
    }
}
