package org.etw4j.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.EtwException;
import org.etw4j.Win32Error;
import org.etw4j.controller.SessionConfig;

/**
 * What {@code ControlTrace(EVENT_TRACE_CONTROL_UPDATE)} can change in a running session, checked once for every
 * backend so that {@link SessionControl#update} refuses what Windows would silently ignore.
 *
 * <p>Stateless; thread-safe. The rules come from MS Learn, ControlTraceW, parameter Properties with
 * EVENT_TRACE_CONTROL_UPDATE: "You can update the following properties": EnableFlags (system loggers only),
 * FlushTimer ("If this member is 0, the member is not updated"), LogFileNameOffset (switch to another log file),
 * LogFileMode (turn EVENT_TRACE_REAL_TIME_MODE on or off), MaximumBuffers ("If this member is 0, the member is not
 * updated"). Every other member of EVENT_TRACE_PROPERTIES (BufferSize, MinimumBuffers, the clock in
 * Wnode.ClientContext, the name) is not updated. etw4j supports the flush timer and the maximum number of buffers;
 * switching real-time delivery or the log file is refused too (not implemented).
 */
public final class SessionUpdates {
    private SessionUpdates() {
    }

    /**
     * Refuses an update ControlTrace would not apply as asked.
     *
     * @throws EtwException naming ControlTraceW, ERROR_INVALID_PARAMETER, and every member that cannot change
     */
    public static void check(SessionConfig running, SessionConfig requested) {
        Objects.requireNonNull(requested, "requested");
        List<String> refused = new ArrayList<>();
        if (!running.name().equals(requested.name())) {
            refused.add("the session name");
        }
        if (running.bufferSizeKb() != requested.bufferSizeKb()) {
            refused.add("BufferSize (" + running.bufferSizeKb() + " KB)");
        }
        if (running.minimumBuffers() != requested.minimumBuffers()) {
            refused.add("MinimumBuffers (" + running.minimumBuffers() + ")");
        }
        if (running.clockType() != requested.clockType()) {
            refused.add("the clock (" + running.clockType() + ")");
        }
        if (requested.flushTimer().isZero() && !running.flushTimer().isZero()) {
            refused.add("FlushTimer back to 0 (ControlTrace reads a FlushTimer of 0 as \"not updated\"; it stays "
                    + running.flushTimer().toSeconds() + " s)");
        }
        if (running.realTime() != requested.realTime() || !Objects.equals(running.logFile(), requested.logFile())) {
            refused.add("real-time delivery or the log file (etw4j does not switch them)");
        }
        if (!Objects.equals(running.kernel(), requested.kernel())) {
            refused.add("the kernel events (etw4j sets them when the session starts)");
        }
        if (running.fileMode() != requested.fileMode() || running.maximumFileSizeMb() != requested.maximumFileSizeMb()
                || running.privateInProcess() != requested.privateInProcess()) {
            refused.add("the file mode, the maximum file size or private mode (not members UPDATE changes)");
        }
        if (!refused.isEmpty()) {
            throw new EtwException("ControlTraceW", Win32Error.ERROR_INVALID_PARAMETER.code(),
                    "UPDATE of session '" + running.name() + "' changes only the flush timer (to a nonzero value) and"
                            + " MaximumBuffers; it cannot change " + String.join(", ", refused));
        }
    }
}
