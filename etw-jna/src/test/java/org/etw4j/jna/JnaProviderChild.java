package org.etw4j.jna;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.SessionConfig;
import org.etw4j.jna.internal.SimEngine;
import org.etw4j.jna.internal.StandIn;
import org.etw4j.provider.ControlCode;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventData;
import org.etw4j.sim.SimulatedBackend;
import org.etw4j.spi.SessionControl;
import org.etw4j.spi.TraceConsumer;

/**
 * The child process of issue 21, item 14: a service on Java 17 that registers a provider through etw-jna and
 * writes events, while its parent (a JDK 25 test with the FFM backend) runs the session and consumes them.
 * Compiled for and run on JDK 17 (this module's release); started by native-bindings' {@code JnaChildProcess}.
 *
 * <p>Arguments: {@code PROVIDER-GUID COUNT [--standin LIBRARY]}. It registers {@code PROVIDER-GUID} with
 * {@link EtwProvider} over a {@link JnaBackend}, waits up to 20 s for an enable, writes {@code COUNT} events
 * {@link #EVENT} whose payload is {@link #payload(int)}, then unregisters. It prints one line per fact, which the
 * parent asserts: {@code ENABLED level anyKeyword}, {@code WROTE i status}, {@code DONE writes failures}.
 *
 * <p>With {@code --standin LIBRARY} (off Windows, where the parent cannot reach this process's ETW) the JNA
 * backend binds the stand-in advapi32 with {@link SimEngine} as its ETW, and this process plays the parent's part
 * on a simulated session: it enables the provider before registering (so the enable arrives inside EventRegister,
 * as the Windows parent arranges), consumes, and prints {@code RECEIVED id level keyword pid value} per event
 * of the provider. That exercises the launch, the JDK 17 run and the protocol here; only Windows shows the
 * cross-process half.
 */
public final class JnaProviderChild {
    /** The events written: id 7, INFORMATIONAL, keyword 0x1. */
    public static final EventDescriptor EVENT = EventDescriptor.of(7, Level.INFORMATIONAL, 0x1);
    /** The UTF-16LE marker after the counter in every payload. */
    public static final String MARKER = "etw4j-jna-child";

    private JnaProviderChild() {
    }

    /** The payload of event {@code i}: the int {@code i} (little-endian), then {@link #MARKER} in UTF-16LE. */
    public static byte[] payload(int i) {
        byte[] marker = MARKER.getBytes(StandardCharsets.UTF_16LE);
        return ByteBuffer.allocate(4 + marker.length).order(ByteOrder.LITTLE_ENDIAN).putInt(i).put(marker).array();
    }

    public static void main(String[] args) throws Exception {
        Guid id = Guid.parse(args[0]);
        int count = Integer.parseInt(args[1]);
        boolean standIn = args.length > 3 && args[2].equals("--standin");
        if (standIn) {
            System.setProperty(org.etw4j.jna.internal.Advapi32.LIBRARY_PROPERTY, args[3]);
            System.setProperty(StandIn.PROPERTY, args[3]);
        }
        System.out.println("JAVA " + Runtime.version().feature());
        SimulatedBackend sim = null;
        SessionControl session = null;
        TraceConsumer consumer = null;
        Thread processing = null;
        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch allReceived = new CountDownLatch(count);
        if (standIn) {
            sim = new SimulatedBackend();
            SimEngine.install().route(sim);
            session = sim.startSession(SessionConfig.realTime("etw4j-jna-child").build());
            consumer = sim.openRealTime(session.name(), r -> {
                if (r.providerId().equals(id)) {
                    received.add("RECEIVED " + r.id() + " " + r.level() + " " + r.keyword() + " " + r.processId() + " "
                            + r.userData().getInt(0));
                    allReceived.countDown();
                }
            });
            processing = new Thread(consumer::process, "child-consumer");
            processing.setDaemon(true);
            processing.start();
            session.enableProvider(id, EnableParameters.of(Level.VERBOSE, 0x1));
        }
        CountDownLatch enabled = new CountDownLatch(1);
        try (EtwProvider p = EtwProvider.builder(id).backend(JnaBackend.create().backend()).onEnable((pr, n) -> {
            if (n.controlCode() == ControlCode.ENABLE_PROVIDER) {
                System.out.println("ENABLED " + n.level() + " " + n.matchAnyKeyword());
                enabled.countDown();
            }
        }).register()) {
            if (!enabled.await(20, TimeUnit.SECONDS)) {
                System.out.println("NOT-ENABLED");
                System.exit(3);
            }
            for (int i = 0; i < count; i++) {
                System.out.println("WROTE " + i + " " + p.write(EVENT, new EventData().add(payload(i))));
            }
            System.out.println("DONE " + p.statistics().writes() + " " + p.statistics().failures());
        }
        if (standIn) {
            session.flush();
            boolean all = allReceived.await(Duration.ofSeconds(20).toSeconds(), TimeUnit.SECONDS);
            received.forEach(System.out::println);
            session.stop();
            consumer.close();
            processing.join(5_000);
            if (!all) {
                System.exit(4);
            }
        }
        System.out.flush();
    }
}
