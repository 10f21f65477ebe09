/**
 * The pure-Java simulated ETW: the same API and semantics as Windows (enable notifications, per-session level
 * and keyword rules, filters, buffers and losses, real-time consumers, .etl output when etw-consumer is present),
 * for running everywhere, in CI and off Windows.
 *
 * <p>Not application API: exported only to etw4j's own modules. Applications get the simulator through the
 * backend SPI ({@code -Detw4j.backend=simulated}, or as the fallback where no native backend loads).
 * Entry point: {@link org.etw4j.sim.SimulatedBackend}. Threading: thread-safe. Close: sessions and consumers
 * close idempotently; providers are unregistered by their owner.
 */
package org.etw4j.sim;
