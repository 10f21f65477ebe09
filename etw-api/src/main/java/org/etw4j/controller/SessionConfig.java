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
 * &lt;= maximum buffers &lt;= 1_000_000; flush timer zero (never) or a whole number of seconds. File modes, the
 * maximum file size and private sessions follow ETW's documented rules ({@link SessionConfigException.Rule}), so a
 * configuration Windows would refuse, or would run wrongly, fails here with the rule named.
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
 * @param fileMode       how the log file is written (ignored without one: {@link LogFileMode#SEQUENTIAL})
 * @param maximumFileSizeMb most megabytes the log file may hold (EVENT_TRACE_PROPERTIES.MaximumFileSize); 0 = no
 *                       limit, allowed only for SEQUENTIAL and APPEND
 * @param privateInProcess a private in-process session (EVENT_TRACE_PRIVATE_LOGGER_MODE |
 *                       EVENT_TRACE_PRIVATE_IN_PROC): only this process's providers reach it, it writes a file and
 *                       has no real-time consumers; a non-elevated process may start one (Windows 10 1703 and later)
 * @param kernel         the SystemTraceProvider's kernel events this session logs, or null for none; with
 *                       {@link KernelLogger#NT_KERNEL_LOGGER} the name must be {@link KernelTracing#KERNEL_LOGGER_NAME},
 *                       with {@link KernelLogger#SYSTEM_LOGGER} it must not be
 * <p>A broken file-mode or private-session rule throws {@link SessionConfigException}, naming the rule.
 */
public record SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                            int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists,
                            LogFileMode fileMode, int maximumFileSizeMb, boolean privateInProcess,
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
        Objects.requireNonNull(fileMode, "fileMode");
        checkFileRules(realTime, logFile, bufferSizeKb, clockType, fileMode, maximumFileSizeMb, privateInProcess);
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

    /**
     * A configuration with a sequential file of unlimited size (or none), not private: the components before file
     * modes existed.
     */
    public SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                         int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists) {
        this(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer, clockType, ifExists,
                LogFileMode.SEQUENTIAL, 0, false, null);
    }

    /** A session without kernel events: the components before kernel tracing existed. */
    public SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                         int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists,
                         LogFileMode fileMode, int maximumFileSizeMb, boolean privateInProcess) {
        this(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer, clockType, ifExists,
                fileMode, maximumFileSizeMb, privateInProcess, null);
    }

    /** A sequential file of unlimited size (or none), not private, with {@code kernel} (null: none). */
    public SessionConfig(String name, boolean realTime, Path logFile, int bufferSizeKb, int minimumBuffers,
                         int maximumBuffers, Duration flushTimer, ClockType clockType, IfSessionExists ifExists,
                         KernelTracing kernel) {
        this(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer, clockType, ifExists,
                LogFileMode.SEQUENTIAL, 0, false, kernel);
    }

    /** The same configuration with {@code kernelTracing} (null: none). */
    public SessionConfig withKernel(KernelTracing kernelTracing) {
        return new SessionConfig(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer,
                clockType, ifExists, fileMode, maximumFileSizeMb, privateInProcess, kernelTracing);
    }

    /** ETW's file-mode and private-session rules, each with its source ({@link SessionConfigException.Rule}). */
    private static void checkFileRules(boolean realTime, Path logFile, int bufferSizeKb, ClockType clockType,
                                       LogFileMode mode, int maxMb, boolean privateInProcess) {
        if (maxMb < 0) {
            throw new SessionConfigException(SessionConfigException.Rule.MAXIMUM_FILE_SIZE_NEGATIVE, maxMb + " MB");
        }
        if (privateInProcess && (realTime || logFile == null)) {
            throw new SessionConfigException(SessionConfigException.Rule.PRIVATE_NEEDS_FILE,
                    "realTime=" + realTime + ", logFile=" + logFile);
        }
        if (logFile == null) {
            if (mode != LogFileMode.SEQUENTIAL || maxMb != 0) {
                throw new SessionConfigException(SessionConfigException.Rule.FILE_SETTINGS_WITHOUT_FILE,
                        mode + ", " + maxMb + " MB, no log file");
            }
            return;
        }
        if ((mode == LogFileMode.CIRCULAR || mode == LogFileMode.NEW_FILE) && maxMb == 0) {
            throw new SessionConfigException(SessionConfigException.Rule.MAXIMUM_FILE_SIZE_REQUIRED, mode + " with no maximum");
        }
        if (maxMb != 0 && maxMb * 1024L < 2L * bufferSizeKb) {
            throw new SessionConfigException(SessionConfigException.Rule.MAXIMUM_FILE_SIZE_BELOW_TWO_BUFFERS,
                    maxMb + " MB for buffers of " + bufferSizeKb + " KB");
        }
        if (mode == LogFileMode.NEW_FILE) {
            if (privateInProcess) {
                throw new SessionConfigException(SessionConfigException.Rule.NEW_FILE_NOT_PRIVATE, "a private NEW_FILE session");
            }
            String file = String.valueOf(logFile.getFileName());
            int first = file.indexOf("%d");
            if (first < 0 || file.indexOf("%d", first + 2) >= 0) {
                throw new SessionConfigException(SessionConfigException.Rule.NEW_FILE_NEEDS_PERCENT_D, "'" + file + "'");
            }
        }
        if (mode == LogFileMode.APPEND) {
            if (realTime) {
                throw new SessionConfigException(SessionConfigException.Rule.APPEND_NOT_REAL_TIME, "APPEND with real-time");
            }
            if (privateInProcess) {
                throw new SessionConfigException(SessionConfigException.Rule.APPEND_NOT_PRIVATE, "a private APPEND session");
            }
            if (clockType != ClockType.SYSTEM_TIME) {
                throw new SessionConfigException(SessionConfigException.Rule.APPEND_NEEDS_SYSTEM_TIME, "clock " + clockType);
            }
        }
    }

    /**
     * The file a NEW_FILE session writes as its {@code n}th (1, 2, ...): the {@code %d} replaced by {@code n}, as
     * ETW does ("each time a new file is created, a counter is incremented and its value is used"); the log file
     * itself in the other modes.
     */
    public Path logFile(int n) {
        if (logFile == null || fileMode != LogFileMode.NEW_FILE) {
            return logFile;
        }
        String file = logFile.getFileName().toString().replace("%d", Integer.toString(n));
        return logFile.resolveSibling(file);
    }

    /** MaximumFileSize in bytes; 0 when there is no limit. */
    public long maximumFileSizeBytes() {
        return maximumFileSizeMb * 1024L * 1024L;
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
        private LogFileMode fileMode = LogFileMode.SEQUENTIAL;
        private int maximumFileSizeMb;
        private boolean privateInProcess;
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

        /** How the log file is written (default SEQUENTIAL). */
        public Builder fileMode(LogFileMode mode) {
            this.fileMode = mode;
            return this;
        }

        /** Most megabytes the log file may hold; 0 (default) = no limit (SEQUENTIAL and APPEND only). */
        public Builder maximumFileSizeMb(int mb) {
            this.maximumFileSizeMb = mb;
            return this;
        }

        /** A circular file of at most {@code mb} MB: the flight recorder that keeps the latest events. */
        public Builder circular(int mb) {
            return fileMode(LogFileMode.CIRCULAR).maximumFileSizeMb(mb);
        }

        /** A new file (the {@code %d} of the file name counting 1, 2, ...) each time {@code mb} MB are written. */
        public Builder newFileEvery(int mb) {
            return fileMode(LogFileMode.NEW_FILE).maximumFileSizeMb(mb);
        }

        /**
         * A private in-process session (EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC): only
         * providers registered in this process reach it; file only.
         */
        public Builder privateInProcess(boolean p) {
            this.privateInProcess = p;
            return this;
        }

        public SessionConfig build() {
            return new SessionConfig(name, realTime, logFile, bufferSizeKb, minimumBuffers, maximumBuffers, flushTimer,
                    clockType, ifExists, fileMode, maximumFileSizeMb, privateInProcess, kernel);
        }
    }
}
