package org.etw4j.format;

/**
 * Byte layout of {@code WMI_BUFFER_HEADER}, the 0x48-byte header of every fixed-size ETW buffer, as
 * found in .etl files and in the simulated backend's session buffers.
 *
 * <p>Constants only; no state. Offsets are from the start of the buffer, little-endian. Source:
 * ntwmi.h {@code _WMI_BUFFER_HEADER} (System Informer's phnt copy), Geoff Chappell's WMI_BUFFER_HEADER
 * page and dissect.etl {@code c_etl.py}; verified against real files.
 */
public final class WmiBufferLayout {
    private WmiBufferLayout() {
    }

    /** Size of the buffer header; the first record starts here. */
    public static final int HEADER_SIZE = 0x48;
    public static final int BUFFER_SIZE = 0x00;
    /** End of valid data, header included. */
    public static final int SAVED_OFFSET = 0x04;
    /** Unreliable in files; readers ignore it. */
    public static final int CURRENT_OFFSET = 0x08;
    public static final int REFERENCE_COUNT = 0x0C;
    /** Flush time, in the trace clock. */
    public static final int TIMESTAMP = 0x10;
    public static final int SEQUENCE_NUMBER = 0x18;
    public static final int CLOCK_OR_LIST = 0x20;
    public static final int PROCESSOR_INDEX = 0x28;
    public static final int LOGGER_ID = 0x2A;
    public static final int STATE = 0x2C;
    /** "Offset when flushing"; equals {@link #SAVED_OFFSET} in real files. */
    public static final int OFFSET = 0x30;
    public static final int BUFFER_FLAG = 0x34;
    public static final int BUFFER_TYPE = 0x36;
    public static final int REFERENCE_TIME = 0x38;

    public static final int STATE_FLUSH = 3;

    public static final int FLAG_NORMAL = 0x0000;
    public static final int FLAG_FLUSH_MARKER = 0x0001;
    public static final int FLAG_EVENTS_LOST = 0x0002;
    public static final int FLAG_BUFFER_LOST = 0x0004;
    public static final int FLAG_RTBACKUP_CORRUPT = 0x0008;
    public static final int FLAG_RTBACKUP = 0x0010;
    public static final int FLAG_PROC_INDEX = 0x0020;
    public static final int FLAG_COMPRESSED = 0x0040;
    public static final int PROCESSOR_INDEX_MASK = 0x07FF;

    public static final int TYPE_GENERIC = 0;
    public static final int TYPE_RUNDOWN = 1;
    public static final int TYPE_CTX_SWAP = 2;
    public static final int TYPE_REFTIME = 3;
    public static final int TYPE_HEADER = 4;
    public static final int TYPE_BATCHED = 5;
    public static final int TYPE_EMPTY_MARKER = 6;
    public static final int TYPE_DBG_INFO = 7;

    /** Records are aligned to 8 bytes inside a buffer ({@code DEFAULT_TRACE_ALIGNMENT}). */
    public static final int RECORD_ALIGNMENT = 8;
    /** Unused space after the last record is filled with this byte. */
    public static final byte PADDING_BYTE = (byte) 0xFF;

    /** Rounds a record size up to the record alignment. */
    public static int align(int size) {
        return (size + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
    }
}
