/**
 * etw4j API: providers (manifest-style and TraceLogging events, enable state), controllers (sessions,
 * enabling providers), the backend SPI and the pure-Java simulated ETW backend. Java 17, no FFM.
 *
 * <p>What applications call, exported to everyone (each package's package-info states its entry point and its
 * threading, reuse and close contract): {@code org.etw4j} (values: GUIDs, descriptors, levels, activity ids; the
 * {@link org.etw4j.Backend} a provider or session runs on), {@code org.etw4j.provider}, {@code org.etw4j.tracelogging}
 * and {@code org.etw4j.controller}. No public signature there names an etw4j type that is not exported to everyone
 * ({@code PublicApiTest}).
 *
 * <p>Exported only to etw4j's own modules: {@code org.etw4j.spi} (what a backend implements: registrations,
 * sessions, real-time consumers and their record sink; backend selection), {@code org.etw4j.format} (ETW's byte layouts, written once for the modules
 * that read or write them) and {@code org.etw4j.sim} (the simulated ETW: applications reach it through
 * {@code Backend.getDefault()}, {@code -Detw4j.backend=simulated} or as the default off Windows).
 * {@code org.etw4j.internal} is exported to no module.
 */
module org.etw4j.api {
    exports org.etw4j;
    exports org.etw4j.controller;
    exports org.etw4j.provider;
    exports org.etw4j.tracelogging;

    // The backend SPI: the backends (FFM, JNA), the consumer (record view, real-time consumers, .etl sink), the CLI
    // (--backend, its own session and consumer plumbing).
    exports org.etw4j.spi to org.etw4j.cli, org.etw4j.consumer, org.etw4j.jna, org.etw4j.nativebindings;
    // ETW's byte layouts: the .etl reader and writer, the FFM and JNA backends (filter descriptors, EVENT_HEADER),
    // the CLI's dump of raw headers.
    exports org.etw4j.format to org.etw4j.cli, org.etw4j.consumer, org.etw4j.jna, org.etw4j.nativebindings;
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
