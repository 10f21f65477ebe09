package org.etw4j.nativebindings.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.file.Path;
import java.time.Duration;
import org.etw4j.Guid;
import org.etw4j.controller.ClockType;
import org.etw4j.controller.IfSessionExists;
import org.etw4j.controller.KernelLogger;
import org.etw4j.controller.KernelTracing;
import org.etw4j.controller.LogFileMode;
import org.etw4j.controller.SessionConfig;
import org.etw4j.controller.SessionConfigException;
import org.etw4j.controller.SessionInfo;
import org.etw4j.controller.SessionStatistics;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.etw4j.nativebindings.generated._WNODE_HEADER;
import org.etw4j.nativebindings.layout.EventTraceProperties;

/**
 * {@link SessionConfig} to and from {@code EVENT_TRACE_PROPERTIES} (with the appended names of
 * {@link EventTraceProperties}), and the counters ControlTraceW QUERY/STOP leave in it.
 *
 * <p>Stateless; thread-safe. Buffers belong to the caller's allocator. Field meanings: Microsoft Learn,
 * "EVENT_TRACE_PROPERTIES structure (evntrace.h)": BufferSize in KB, FlushTimer in seconds,
 * {@code Wnode.ClientContext} the clock (1 QPC, 2 system time, 3 CPU cycles), {@code Wnode.Guid} the session
 * GUID, {@code Wnode.HistoricalContext} the session's handle on output, {@code Wnode.Flags} must hold
 * WNODE_FLAG_TRACED_GUID.
 */
final class SessionProperties {
    /** Room for each name in a buffer that receives properties (QUERY, QueryAllTracesW): ETW's 1024 + NUL. */
    static final int QUERY_NAME_CHARS = SessionConfig.MAX_NAME_LENGTH + 1;

    private SessionProperties() {
    }

    /** The buffer StartTraceW takes for {@code config}, with {@code sessionId} as Wnode.Guid. */
    static MemorySegment forStart(SegmentAllocator allocator, SessionConfig config, Guid sessionId) {
        MemorySegment p = EventTraceProperties.allocate(allocator, config.name(), logFileName(config.logFile()));
        MemorySegment wnode = _EVENT_TRACE_PROPERTIES.Wnode(p);
        NativeGuids.write(wnode, _WNODE_HEADER.Guid$offset(), wnodeGuid(config, sessionId));
        _WNODE_HEADER.ClientContext(wnode, config.clockType().value());
        _WNODE_HEADER.Flags(wnode, EtwNative.WNODE_FLAG_TRACED_GUID());
        setChangeable(p, config);
        _EVENT_TRACE_PROPERTIES.BufferSize(p, config.bufferSizeKb());
        _EVENT_TRACE_PROPERTIES.MinimumBuffers(p, config.minimumBuffers());
        if (config.kernel() != null) {
            // MS Learn, EVENT_TRACE_PROPERTIES, EnableFlags: "Flags that enable which NT Kernel Logger events to log"
            // (and the SystemTraceProvider's events of a system logger session, "Configuring and Starting a
            // SystemTraceProvider Session")
            _EVENT_TRACE_PROPERTIES.EnableFlags(p, config.kernel().enableFlags());
        }
        // MB ("Maximum size of the file used to log events, in megabytes"; required with CIRCULAR and NEWFILE),
        // 0 = no limit (MS Learn, EVENT_TRACE_PROPERTIES structure)
        _EVENT_TRACE_PROPERTIES.MaximumFileSize(p, config.maximumFileSizeMb());
        return p;
    }

    /**
     * {@code Wnode.Guid} at start: SystemTraceControlGuid for the NT Kernel Logger (MS Learn, "Configuring and
     * Starting the NT Kernel Logger Session"), else the session's own GUID (a system logger must not use
     * SystemTraceControlGuid: "Configuring and Starting a SystemTraceProvider Session").
     */
    static Guid wnodeGuid(SessionConfig config, Guid sessionId) {
        return config.kernel() != null && config.kernel().logger() == KernelLogger.NT_KERNEL_LOGGER
                ? KernelTracing.SYSTEM_TRACE_CONTROL_GUID : sessionId;
    }

    /**
     * The buffer ControlTraceW UPDATE takes: the session name, the changeable fields, and no log file name
     * (LogFileNameOffset 0 means "keep the current file"; a name there would make ETW switch files).
     */
    static MemorySegment forUpdate(SegmentAllocator allocator, SessionConfig config) {
        MemorySegment p = EventTraceProperties.allocate(allocator, config.name(), null);
        MemorySegment wnode = _EVENT_TRACE_PROPERTIES.Wnode(p);
        _WNODE_HEADER.ClientContext(wnode, config.clockType().value());
        _WNODE_HEADER.Flags(wnode, EtwNative.WNODE_FLAG_TRACED_GUID());
        setChangeable(p, config);
        _EVENT_TRACE_PROPERTIES.BufferSize(p, config.bufferSizeKb());
        _EVENT_TRACE_PROPERTIES.MinimumBuffers(p, config.minimumBuffers());
        return p;
    }

    /** A buffer for ControlTraceW (QUERY, FLUSH, STOP) and QueryAllTracesW to fill in. */
    static MemorySegment forQuery(SegmentAllocator allocator) {
        return EventTraceProperties.allocateForQuery(allocator, QUERY_NAME_CHARS);
    }

    private static void setChangeable(MemorySegment p, SessionConfig config) {
        _EVENT_TRACE_PROPERTIES.MaximumBuffers(p, config.maximumBuffers());
        _EVENT_TRACE_PROPERTIES.FlushTimer(p, (int) config.flushTimer().toSeconds());
        _EVENT_TRACE_PROPERTIES.LogFileMode(p, logFileMode(config));
    }

    /**
     * {@code LogFileMode} for a config (MS Learn, "Logging Mode Constants"): real-time, the file mode's
     * EVENT_TRACE_FILE_MODE_* bit when there is a file, and EVENT_TRACE_PRIVATE_LOGGER_MODE |
     * EVENT_TRACE_PRIVATE_IN_PROC for a private in-process session ("Configuring and Starting a Private Logger
     * Session"; with PRIVATE_IN_PROC the session keeps its own GUID in Wnode.Guid), and
     * EVENT_TRACE_SYSTEM_LOGGER_MODE for a system logger session.
     */
    static int logFileMode(SessionConfig config) {
        boolean systemLogger = config.kernel() != null && config.kernel().logger() == KernelLogger.SYSTEM_LOGGER;
        return (config.realTime() ? EtwNative.EVENT_TRACE_REAL_TIME_MODE() : 0)
                | (config.logFile() != null ? fileModeBit(config.fileMode()) : 0)
                | (config.privateInProcess()
                        ? EtwNative.EVENT_TRACE_PRIVATE_LOGGER_MODE() | EtwNative.EVENT_TRACE_PRIVATE_IN_PROC() : 0)
                // MS Learn, "Configuring and Starting a SystemTraceProvider Session": Windows 8 and later
                | (systemLogger ? EtwNative.EVENT_TRACE_SYSTEM_LOGGER_MODE() : 0);
    }

    private static int fileModeBit(LogFileMode mode) {
        return switch (mode) {
            case SEQUENTIAL -> EtwNative.EVENT_TRACE_FILE_MODE_SEQUENTIAL();
            case CIRCULAR -> EtwNative.EVENT_TRACE_FILE_MODE_CIRCULAR();
            case APPEND -> EtwNative.EVENT_TRACE_FILE_MODE_APPEND();
            case NEW_FILE -> EtwNative.EVENT_TRACE_FILE_MODE_NEWFILE();
        };
    }

    /** The file mode a LogFileMode holds (SEQUENTIAL when none of the file-mode bits is set). */
    static LogFileMode fileMode(int mode) {
        for (LogFileMode m : LogFileMode.values()) {
            if ((mode & fileModeBit(m)) != 0 && m != LogFileMode.SEQUENTIAL) {
                return m;
            }
        }
        return LogFileMode.SEQUENTIAL;
    }

    private static String logFileName(Path logFile) {
        return logFile == null ? null : logFile.toAbsolutePath().toString();
    }

    /** {@code Wnode.Guid}: the session GUID. */
    static Guid sessionId(MemorySegment p) {
        return NativeGuids.read(_EVENT_TRACE_PROPERTIES.Wnode(p), _WNODE_HEADER.Guid$offset());
    }

    /** {@code Wnode.HistoricalContext}: the session's TRACEHANDLE (its logger id) after a query. */
    static long loggerHandle(MemorySegment p) {
        return _WNODE_HEADER.HistoricalContext(_EVENT_TRACE_PROPERTIES.Wnode(p));
    }

    /** The session name written at LoggerNameOffset, or null. */
    static String name(MemorySegment p) {
        return EventTraceProperties.loggerName(p);
    }

    /** The log file written at LogFileNameOffset, or null when there is none (or it is empty). */
    static Path logFile(MemorySegment p) {
        String f = EventTraceProperties.logFileName(p);
        return f == null || f.isEmpty() ? null : Path.of(f);
    }

    /**
     * The configuration a queried session runs with. Values ETW reports that {@link SessionConfig} would refuse
     * (it may round buffer counts) are brought into its ranges; an unknown clock is taken as QPC.
     */
    static SessionConfig config(MemorySegment p, String fallbackName, IfSessionExists policy) {
        String name = name(p);
        int mode = _EVENT_TRACE_PROPERTIES.LogFileMode(p);
        boolean realTime = (mode & EtwNative.EVENT_TRACE_REAL_TIME_MODE()) != 0;
        Path logFile = logFile(p);
        if (!realTime && logFile == null) {
            realTime = true; // a buffering or unknown mode: described as real-time rather than refused
        }
        int kb = clamp(_EVENT_TRACE_PROPERTIES.BufferSize(p), 1, SessionConfig.MAX_BUFFER_SIZE_KB);
        int min = clamp(_EVENT_TRACE_PROPERTIES.MinimumBuffers(p), 2, 1_000_000);
        int max = clamp(_EVENT_TRACE_PROPERTIES.MaximumBuffers(p), min, 1_000_000);
        int flush = Math.max(0, _EVENT_TRACE_PROPERTIES.FlushTimer(p));
        int clock = _WNODE_HEADER.ClientContext(_EVENT_TRACE_PROPERTIES.Wnode(p));
        ClockType clockType = clock >= 1 && clock <= 3 ? ClockType.of(clock) : ClockType.QPC;
        String sessionName = name == null || name.isEmpty() ? fallbackName : name;
        boolean privateInProcess = (mode & EtwNative.EVENT_TRACE_PRIVATE_LOGGER_MODE()) != 0;
        try {
            return new SessionConfig(sessionName, realTime, logFile, kb, min, max, Duration.ofSeconds(flush), clockType,
                    policy, logFile == null ? LogFileMode.SEQUENTIAL : fileMode(mode),
                    logFile == null ? 0 : _EVENT_TRACE_PROPERTIES.MaximumFileSize(p), privateInProcess && logFile != null && !realTime);
        } catch (SessionConfigException e) {
            // a running session described in terms SessionConfig refuses (a NEWFILE session reports its current
            // file, which has no %d): described without its file mode rather than refused
            return new SessionConfig(sessionName, realTime, logFile, kb, min, max, Duration.ofSeconds(flush), clockType, policy);
        }
    }

    /**
     * The counters of a QUERY or STOP answer: what Windows reports in EVENT_TRACE_PROPERTIES (EventsLost,
     * BuffersWritten, LogBuffersLost, RealTimeBuffersLost, NumberOfBuffers, FreeBuffers). Windows counts no
     * accepted, delivered or pending events: those are {@link SessionStatistics#NOT_REPORTED}, whatever library
     * answers (the stand-in too), so the backend behaves here as it does on Windows.
     */
    static SessionStatistics statistics(MemorySegment p) {
        return SessionStatistics.reportedByWindows(Integer.toUnsignedLong(_EVENT_TRACE_PROPERTIES.EventsLost(p)),
                Integer.toUnsignedLong(_EVENT_TRACE_PROPERTIES.BuffersWritten(p)),
                Integer.toUnsignedLong(_EVENT_TRACE_PROPERTIES.LogBuffersLost(p)),
                Integer.toUnsignedLong(_EVENT_TRACE_PROPERTIES.RealTimeBuffersLost(p)),
                _EVENT_TRACE_PROPERTIES.NumberOfBuffers(p), _EVENT_TRACE_PROPERTIES.FreeBuffers(p));
    }

    /** The session a QueryAllTracesW entry describes. */
    static SessionInfo info(MemorySegment p) {
        int mode = _EVENT_TRACE_PROPERTIES.LogFileMode(p);
        return new SessionInfo(name(p), sessionId(p), loggerHandle(p), (mode & EtwNative.EVENT_TRACE_REAL_TIME_MODE()) != 0,
                logFile(p));
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
