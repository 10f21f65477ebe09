package org.etw4j.tracelogging;

/**
 * Thrown when a TraceLogging metadata blob or payload cannot be decoded: truncated data, an undefined InType,
 * a struct without enough members, an odd UTF-16 byte count, a custom-schema field.
 *
 * <p>Unchecked, because malformed input is a property of the data and callers (trace readers) handle it per
 * event, typically by keeping the raw bytes. Immutable once thrown.
 */
public final class TraceLoggingDecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String fieldName;
    private final int offset;

    /**
     * @param fieldName the field being decoded, or {@code null} when the problem is in the event header part
     * @param offset    byte offset of the problem, relative to the start of the metadata blob or payload, or -1
     *                  when the problem is not at one byte (a struct missing members)
     * @param problem   what is wrong
     */
    public TraceLoggingDecodeException(String fieldName, int offset, String problem) {
        super((fieldName == null ? "" : "field '" + fieldName + "': ") + problem + " (at offset " + offset + ")");
        this.fieldName = fieldName;
        this.offset = offset;
    }

    /** The field being decoded, or {@code null}. */
    public String fieldName() {
        return fieldName;
    }

    /** Offset of the problem from the start of the blob or payload. */
    public int offset() {
        return offset;
    }
}
