/**
 * etw4j API: providers (manifest-style and TraceLogging events, enable state), controllers (sessions,
 * enabling providers), the backend SPI and the pure-Java simulated ETW backend. Java 17, no FFM.
 */
module org.etw4j.api {
    exports org.etw4j;
    exports org.etw4j.controller;
    exports org.etw4j.format;
    exports org.etw4j.provider;
    exports org.etw4j.sim;
    exports org.etw4j.spi;
    exports org.etw4j.tracelogging;

    uses org.etw4j.spi.EtwBackendFactory;
    uses org.etw4j.spi.LogFileSinkFactory;

    provides org.etw4j.spi.EtwBackendFactory with org.etw4j.sim.SimulatedBackend.Factory;
}
