package org.etw4j.consumer.etl;

/**
 * An .etl file is not readable as one: not an .etl file, corrupt beyond what the reader can skip, or (in
 * strict mode) any problem that would otherwise be a counted {@link EtlWarning}.
 *
 * <p>Immutable once thrown; unchecked so that cursors can be used in loops and lambdas. The message names
 * the file, the file offset and the buffer index where the problem was found; {@link #fileOffset()} and
 * {@link #bufferIndex()} give them as numbers (-1 when not applicable).
 */
public final class EtlFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long fileOffset;
    private final long bufferIndex;

    /** A problem at a place in a file; the place is appended to the message. */
    public EtlFormatException(String file, String problem, long fileOffset, long bufferIndex) {
        super(describe(file, problem, fileOffset, bufferIndex));
        this.fileOffset = fileOffset;
        this.bufferIndex = bufferIndex;
    }

    /** Same, with a cause. */
    public EtlFormatException(String file, String problem, long fileOffset, long bufferIndex, Throwable cause) {
        super(describe(file, problem, fileOffset, bufferIndex), cause);
        this.fileOffset = fileOffset;
        this.bufferIndex = bufferIndex;
    }

    /** Offset in the file where the problem was found, or -1. */
    public long fileOffset() {
        return fileOffset;
    }

    /** Index (in file order, 0 = header buffer) of the buffer where the problem was found, or -1. */
    public long bufferIndex() {
        return bufferIndex;
    }

    static String describe(String file, String problem, long fileOffset, long bufferIndex) {
        StringBuilder sb = new StringBuilder(problem).append(" (");
        if (file != null) {
            sb.append(file).append(", ");
        }
        sb.append("file offset ").append(fileOffset < 0 ? "n/a" : "0x" + Long.toHexString(fileOffset));
        sb.append(", buffer ").append(bufferIndex < 0 ? "n/a" : Long.toString(bufferIndex)).append(')');
        return sb.toString();
    }
}
