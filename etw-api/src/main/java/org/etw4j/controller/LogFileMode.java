package org.etw4j.controller;

/**
 * How a session writes its .etl file: the file-mode bits of {@code EVENT_TRACE_PROPERTIES.LogFileMode}
 * (MS Learn, "Logging Mode Constants"; values from evntrace.h, checked against the mingw-w64 headers by
 * native-bindings' ApiConstantsMatchHeadersTest).
 *
 * <p>Enum constants: immutable, thread-safe. Only one file mode applies to a session: the page says of each that
 * it is not to be used with the others. What each needs is checked by {@link SessionConfig} (see
 * {@link SessionConfigException.Rule}).
 */
public enum LogFileMode {
    /**
     * EVENT_TRACE_FILE_MODE_SEQUENTIAL: "Writes events to a log file sequentially; stops when the file reaches its
     * maximum size." With no maximum size (0) the file grows until the disk is full (EVENT_TRACE_FILE_MODE_NONE is
     * "the same as SEQUENTIAL with no maximum file size"). Events after the file is full are lost and counted.
     */
    SEQUENTIAL(0x0000_0001),
    /**
     * EVENT_TRACE_FILE_MODE_CIRCULAR, the flight recorder: "After the file reaches the maximum size, the oldest events
     * are replaced with incoming events." Needs a maximum size. The buffers of a wrapped file are not in time order on
     * disk ("the contents of the circular log file may appear out of order"); etw4j's reader merges them in order.
     */
    CIRCULAR(0x0000_0002),
    /**
     * EVENT_TRACE_FILE_MODE_APPEND: "Appends events to an existing sequential log file. If the file does not exist,
     * it is created." Only with the system-time clock ("otherwise, ProcessTrace will return events with incorrect
     * time stamps"), and not with real-time delivery, circular, new-file or private sessions.
     */
    APPEND(0x0000_0004),
    /**
     * EVENT_TRACE_FILE_MODE_NEWFILE: "Automatically switches to a new log file when the file reaches the maximum
     * size." Needs a maximum size and a file name with one {@code %d}, replaced by a counter (1, 2, ...); not
     * allowed for private sessions. Each file is a complete trace with its own header.
     */
    NEW_FILE(0x0000_0008);

    private final int bit;

    LogFileMode(int bit) {
        this.bit = bit;
    }

    /** The EVENT_TRACE_FILE_MODE_* value. */
    public int bit() {
        return bit;
    }
}
