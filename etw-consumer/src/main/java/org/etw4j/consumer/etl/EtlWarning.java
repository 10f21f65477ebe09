package org.etw4j.consumer.etl;

/**
 * A problem the reader stepped over instead of failing: something was skipped and counted.
 *
 * <p>Immutable value; thread-safe. Delivered to an {@link EtlWarningListener} and counted by
 * {@link EtlFile#warningCount()}; in strict mode ({@link EtlReadOptions#strict()}) the same problem is
 * thrown as an {@link EtlFormatException} instead.
 *
 * @param kind        what was wrong
 * @param file        file name
 * @param fileOffset  offset in the file where it was found; for records inside compressed buffers, the
 *                    buffer's offset
 * @param bufferIndex index of the buffer in file order, or -1
 * @param message     human-readable detail
 */
public record EtlWarning(Kind kind, String file, long fileOffset, long bufferIndex, String message) {

    /** What a warning is about, and what was skipped because of it. */
    public enum Kind {
        /** A buffer header is inconsistent (size, saved offset); the buffer's records are skipped. */
        BAD_BUFFER,
        /** The file ends inside a buffer; records that fit are read, the rest is missing. */
        TRUNCATED_BUFFER,
        /** Buffer sizes no longer chain to the next buffer (compressed files); the rest of the file is skipped. */
        BROKEN_CHAIN,
        /** The number of buffers in the file differs from {@code BuffersWritten}. */
        BUFFER_COUNT_MISMATCH,
        /** A compressed buffer could not be decompressed; its records are skipped. */
        BAD_COMPRESSED_DATA,
        /** A record is malformed (marker, size, extended data); it is skipped, and the rest of its buffer when its size cannot be trusted. */
        BAD_RECORD,
        /** A record has a header type ETW does not write (0x0C, 0x0D, 0x0E or unknown); it is skipped. */
        UNSUPPORTED_RECORD,
        /**
         * A buffer holds bytes that are not padding where no record can be read: after its filled length
         * (the larger of SavedOffset and Offset, or the end of its decompressed data), after an end-of-buffer
         * marker, or too few for a record header. The offset is that of the first such byte (for compressed
         * buffers, the buffer's offset, and the message names the offset inside the decompressed buffer).
         */
        DATA_PAST_END,
        /**
         * A compressed buffer meets one of the reader's bounds on decompression (memory, compression ratio, work
         * per file: see docs/hardening.md); it is decoded only as far as the bound allows, or skipped, and the
         * message says which bound and how many bytes were not decoded.
         */
        INFLATION_LIMIT
    }

    @Override
    public String toString() {
        return kind + ": " + EtlFormatException.describe(file, message, fileOffset, bufferIndex);
    }
}
