package org.etw4j.controller;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to start a trace session ({@code EVENT_TRACE_PROPERTIES}): name, real-time and/or .etl file, buffers,
 * flush timer, clock, and what to do when the name is taken.
 *
 * <p>Immutable record; thread-safe. Validated on construction: name 1-1024 characters; real-time or a log file
 * (or both); buffer size 1-16384 KB (ETW's MIN/MAX_ETW_BUFFER_SIZE on Windows 8+); 2 &lt;= minimum buffers
 * &lt;= maximum buffers &lt;= 1_000_000; flush timer zero (never) or a whole number of seconds.
 *
 * @param name           session name (ETW's LoggerName)
 * @param realTime       deliver events to real-time consumers
 * @param logFile        .etl file to write, or null
 * @param bufferSizeKb   size of each buffer in KB; an event must fit in one buffer (MS Learn, EventWrite function, ERROR_MORE_DATA)
 * @param minimumBuffers buffers allocated at start
 * @param maximumBuffers most buffers ever allocated; when all are full, events are lost and counted
 * @param flushTimer     how often partially filled buffers are delivered; zero = only when full or flushed
 * @param clockType      timestamp clock
 * @param ifExists       what to do when a session with this name is running
 * @param kernel         the SystemTraceProvider's kernel events this session logs, or null for none; with
 *                       {@link KernelLogger#NT_KERNEL_LOGGER} the name must be {@link KernelTracing#KERNEL_LOGGER_NAME},
 *                       with {@link KernelLogger#SYSTEM_LOGGER} it must not be
 */
public record SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                            int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists,
                            KernelTracing kernel) {

    /** ETW's MAX_ETW_BUFFER_SIZE in KB (Windows 8 and later). */
    public static final int MAX_BUFFER_SIZE_KB = 16 * 1024;
    /** Longest session name ETW accepts. */
    public static final int MAX_NAME_LENGTH = 1024;

    public SessionConfig {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("SessionConfig.name must be 1-" + MAX_NAME_LENGTH + " characters");
        }
        if (!realTime && logFile == null) {
            throw new IllegalArgumentException("SessionConfig: a session needs real-time delivery, a log file, or both");
        }
        if (bufferSizeKb < 1 || bufferSizeKb > MAX_BUFFER_SIZE_KB) {
            throw new IllegalArgumentException("SessionConfig.bufferSizeKb must be 1-" + MAX_BUFFER_SIZE_KB + ", got " + bufferSizeKb);
        }
        if (minimumBuffers < 2 || maximumBuffers < minimumBuffers || maximumBuffers > 1_000_000) {
            throw new IllegalArgumentException("SessionConfig buffers: need 2 <= minimumBuffers <= maximumBuffers <= 1000000, got "
                    + minimumBuffers + " and " + maximumBuffers);
        }
        Objects.requireNonNull(flushTimer, "flushTimer");
        if (flushTimer.isNegative() || flushTimer.toNanos() % 1_000_000_000L != 0) {
            throw new IllegalArgumentException("SessionConfig.flushTimer must be zero or whole seconds, got " + flushTimer);
        }
        Objects.requireNonNull(clockType, "clockType");
        Objects.requireNonNull(ifExists, "ifExists");
        // MS Learn, "Configuring and Starting the NT Kernel Logger Session" / "... a SystemTraceProvider Session":
        // the NT Kernel Logger is the session of that name; a system logger must have a name of its own
        if (kernel != null && kernel.logger() == KernelLogger.NT_KERNEL_LOGGER
                && !KernelTracing.KERNEL_LOGGER_NAME.equals(name)) {
            throw new IllegalArgumentException("SessionConfig: the NT Kernel Logger session must be named '"
                    + KernelTracing.KERNEL_LOGGER_NAME + "', got '" + name + "' (or use KernelLogger.SYSTEM_LOGGER)");
        }
        if (kernel != null && kernel.logger() == KernelLogger.SYSTEM_LOGGER
                && KernelTracing.KERNEL_LOGGER_NAME.equals(name)) {
            throw new IllegalArgumentException("SessionConfig: a system logger session cannot be named '"
                    + KernelTracing.KERNEL_LOGGER_NAME + "' (use KernelLogger.NT_KERNEL_LOGGER)");
        }
    }

    /** A session without kernel events (the configuration before kernel tracing existed). */
    public SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                         int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists) {
        this(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer, clockType, ifExists,
                null);
    }

    /** The same configuration with {@code kernelTracing} (null: none). */
    public SessionConfig withKernel(KernelTracing kernelTracing) {
        return new SessionConfig(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer,
                clockType, ifExists, kernelTracing);
    }

    /** A real-time session with default buffers (64 KB, 4 to 64 buffers, flush every second, QPC clock). */
    public static Builder realTime(String name) {
        return new Builder(name).realTime(true);
    }

    /** A session writing an .etl file. */
    public static Builder file(String name, Path logFile) {
        return new Builder(name).logFile(logFile);
    }

    /** A session that is both real-time and writes an .etl file. */
    public static Builder realTimeAndFile(String name, Path logFile) {
        return new Builder(name).realTime(true).logFile(logFile);
    }

    /** Buffer size in bytes. */
    public int bufferSizeBytes() {
        return bufferSizeKb * 1024;
    }

    /**
     * Builds a {@link SessionConfig}.
     *
     * <p>Not thread-safe; reusable.
     */
    public static final class Builder {
        private final String name;
        private boolean realTime;
        private Path logFile;
        private int bufferSizeKb = 64;
        private int minimumBuffers = 4;
        private int maximumBuffers = 64;
        private Duration flushTimer = Duration.ofSeconds(1);
        private ClockType clockType = ClockType.QPC;
        private IfSessionExists ifExists = IfSessionExists.FAIL;
        private KernelTracing kernel;

        private Builder(String name) {
            this.name = name;
        }

        public Builder realTime(boolean rt) {
            this.realTime = rt;
            return this;
        }

        public Builder logFile(Path p) {
            this.logFile = p;
            return this;
        }

        public Builder bufferSizeKb(int kb) {
            this.bufferSizeKb = kb;
            return this;
        }

        public Builder buffers(int minimum, int maximum) {
            this.minimumBuffers = minimum;
            this.maximumBuffers = maximum;
            return this;
        }

        public Builder flushTimer(Duration d) {
            this.flushTimer = d;
            return this;
        }

        public Builder clockType(ClockType c) {
            this.clockType = c;
            return this;
        }

        public Builder ifExists(IfSessionExists policy) {
            this.ifExists = policy;
            return this;
        }

        /** Kernel events for this session (null: none). */
        public Builder kernel(KernelTracing k) {
            this.kernel = k;
            return this;
        }

        public SessionConfig build() {
            return new SessionConfig(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer,
                    clockType, ifExists, kernel);
        }
    }
}
