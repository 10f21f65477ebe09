package org.etw4j.consumer.etl;

/**
 * Chooses which buffers of a {@link EtlFile#cursor(EtlOrder, long, long, EtlBufferFilter) buffer-range cursor}
 * are read: asked once per readable buffer of the range, before its records are touched (a compressed buffer is
 * not decompressed when refused), with what the buffer's header says.
 *
 * <p>Implementations are called by the thread that advances the cursor; one used by one cursor needs no locking.
 * A filter that counts its {@code true} answers counts the buffers the cursor read. Used by readers that skip
 * whole buffers by time (a buffer's records are all logged before it is flushed) or split one file over
 * workers (buffers are independent: a record never spans two).
 */
@FunctionalInterface
public interface EtlBufferFilter {

    /** Reads every buffer. */
    EtlBufferFilter ALL = (index, processor, flushTimestamp) -> true;

    /**
     * Whether to read the records of buffer {@code index}.
     *
     * @param index          the buffer's index in the file (0 is the header buffer)
     * @param processor      the processor whose buffer it is
     * @param flushTimestamp {@code WMI_BUFFER_HEADER.TimeStamp} (offset 0x10): the buffer's flush time in the trace's
     *                       raw clock (etw-formats.md 3.2), 0 when the writer left it unset (as in buffer 0)
     */
    boolean accept(long index, int processor, long flushTimestamp);
}
