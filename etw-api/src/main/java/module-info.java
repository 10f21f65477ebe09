/**
 * etw4j API: providers (manifest-style and TraceLogging events, enable state), controllers (sessions,
 * enabling providers), the backend SPI and the pure-Java simulated ETW backend. Java 17, no FFM.
 *
 * <p>What applications call: {@code org.etw4j} (values: GUIDs, descriptors, levels, activity ids),
 * {@code org.etw4j.provider}, {@code org.etw4j.tracelogging} and {@code org.etw4j.controller}. Two more are
 * exported because that API names their types: {@code org.etw4j.spi} ({@code EtwProvider.Builder.backend},
 * {@code EtwProvider.activityIds}, the consumer's {@code RawEventRecord}) and {@code org.etw4j.format}
 * ({@code EventWriter.payload}'s {@code PayloadBuffer}, the .etl writer's {@code LogfileHeader} and
 * {@code TimestampConverter}). The simulated backend is not application API: applications reach it through the
 * SPI ({@code -Detw4j.backend=simulated}, or as the fallback where no native backend loads), and only etw4j's own
 * modules name it.
 */
module org.etw4j.api {
    exports org.etw4j;
    exports org.etw4j.controller;
    exports org.etw4j.format;
    exports org.etw4j.provider;
    exports org.etw4j.spi;
    exports org.etw4j.tracelogging;
    // The simulator: the CLI's demo and --backend sim, and the modules' tests, which run against it by name.
    exports org.etw4j.sim to org.etw4j.cli, org.etw4j.consumer, org.etw4j.jfr, org.etw4j.jna,
            org.etw4j.opentelemetry, org.etw4j.nativebindings, org.etw4j.samples;

    // Optional: the simulated kernel samples the threads whose CPU time advanced (ThreadMXBean); without the module
    // it falls back to the threads in state RUNNABLE.
    requires static java.management;

    uses org.etw4j.spi.EtwBackendFactory;
    uses org.etw4j.spi.LogFileSinkFactory;

    provides org.etw4j.spi.EtwBackendFactory with org.etw4j.sim.SimulatedBackend.Factory;
}
