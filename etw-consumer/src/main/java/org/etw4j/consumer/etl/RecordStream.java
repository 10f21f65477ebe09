package org.etw4j.consumer.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;

/**
 * The records of one processor's buffers (or of all buffers, in file order), one at a time: the unit the
 * time-ordered merge works on.
 *
 * <p>Not thread-safe; owned by one cursor. Holds the current buffer (a view of the mapped file, or a
 * reused decompression array) and the parsed position of the current record; advancing allocates
 * nothing except one small view object per buffer. Within a buffer records are in timestamp order, and a
 * processor's buffers follow each other in the file in timestamp order (checked on the corpus; a
 * violation only shows as {@link EtlCursor#outOfOrderCount()}).
 */
final class RecordStream {
    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;

    // TRACE_MESSAGE_* option flags of MESSAGE_TRACE_HEADER (ntwmi.h / evntrace.h; etw-formats.md 3.3).
    static final int MESSAGE_SEQUENCE = 0x01;
    static final int MESSAGE_GUID = 0x02;
    static final int MESSAGE_COMPONENT_ID = 0x04;
    static final int MESSAGE_TIMESTAMP = 0x08;
    static final int MESSAGE_SYSTEM_INFO = 0x20;
    static final int MESSAGE_POINTER32 = 0x40;
    static final int MESSAGE_POINTER64 = 0x80;

    final EtlFile file;
    final int id;
    private final int processorFilter;
    private final BufferInfo info = new BufferInfo();
    private long nextBufferOffset;
    private long nextBufferIndex;
    private byte[] inflated;
    private ByteBuffer inflatedView;
    private final InflateMemory memory;
    private final long endIndex;
    private final long firstIndex;
    private final EtlBufferFilter filter;

    // Current buffer.
    ByteBuffer buffer;
    /** End of the records: the buffer's data end, cut to the bytes present. */
    int end;
    /** End of the bytes present (stored or decompressed); after {@link #end} only padding may follow. */
    private int limit;
    long bufferOffset;
    long bufferIndex;
    int processor;
    boolean compressedBuffer;
    /** How the current buffer was stored compressed; null when it was not. */
    BufferCompression compression;

    // Current record.
    int pos;
    int size;
    int headerType;
    HeaderKind kind;
    long timestamp;
    /** The merge's key of the current record ({@link MergingCursor}: the raw timestamp, or FILETIME across files). */
    long mergeKey;
    /** The merge's tie-breaker between files (the order the files were given in); 0 in a one-file merge. */
    int fileRank;
    int userDataOffset;
    int extCount;
    int[] extOffsets = new int[4];
    int messageSequenceAt;
    int messageGuidAt;
    int messageComponentAt;
    int messageSystemInfoAt;
    private int nextPos;

    // Record accounting (EtlRecordCounts): every record header reached is read (handed to the merge) or warned.
    long recordsSeen;
    long recordsRead;
    long recordsWarned;

    /**
     * @param processorFilter processor index whose buffers this stream reads, or -1 for all (file order)
     * @param id              tie-breaker in the merge (lower first)
     * @param memory          decompression memory shared by the streams of one cursor
     * @param firstIndex      index of the first buffer to read
     * @param endIndex        index after the last buffer to read
     * @param filter          asked about each readable buffer of the range before it is loaded
     */
    RecordStream(EtlFile file, int processorFilter, int id, InflateMemory memory, long firstIndex, long endIndex,
                 EtlBufferFilter filter) {
        this.file = file;
        this.memory = memory;
        this.processorFilter = processorFilter;
        this.id = id;
        this.firstIndex = firstIndex;
        this.endIndex = endIndex;
        this.filter = filter;
        this.timestamp = file.clock().origin();
    }

    /** Moves to the next record; false when this stream has no more. */
    boolean advance() {
        for (;;) {
            if (buffer != null) {
                if (nextRecordInBuffer()) {
                    return true;
                }
                buffer = null;
            }
            if (!openNextBuffer()) {
                return false;
            }
        }
    }

    /** File offset of a position in the current buffer; the buffer's offset when it is compressed. */
    long fileOffsetOf(int position) {
        return compressedBuffer ? bufferOffset : bufferOffset + position;
    }

    private boolean openNextBuffer() {
        long[] ordered = processorFilter < 0 ? null : file.timeOrderedOffsets(id);
        if (ordered != null) {
            return openNextInTimeOrder(ordered);
        }
        long chainEnd = file.chainEnd();
        while (nextBufferOffset < chainEnd && nextBufferIndex < endIndex) {
            file.describeBuffer(nextBufferOffset, nextBufferIndex, info);
            if (info.chainBroken) {
                nextBufferOffset = Long.MAX_VALUE;
                return false;
            }
            nextBufferOffset += info.step;
            nextBufferIndex++;
            // Unusable buffers were reported once by the opening scan.
            if (info.usable && info.index >= firstIndex && (processorFilter < 0 || info.processor == processorFilter)
                    && filter.accept(info.index, info.processor, file.bufferTimestamp(info.offset)) && load(info)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The next buffer of a file whose buffers are not in time order on disk (a wrapped circular file): this
     * processor's buffers in the order of their flush time ({@code nextBufferIndex} counts pairs of
     * {@code ordered}; the range and filter apply to each buffer's own index).
     */
    private boolean openNextInTimeOrder(long[] ordered) {
        while (2 * nextBufferIndex < ordered.length) {
            int k = (int) (2 * nextBufferIndex++);
            long offset = ordered[k];
            long index = ordered[k + 1];
            if (index < firstIndex || index >= endIndex) {
                continue;
            }
            file.describeBuffer(offset, index, info);
            if (info.usable && filter.accept(info.index, info.processor, file.bufferTimestamp(info.offset)) && load(info)) {
                return true;
            }
        }
        return false;
    }

    private boolean load(BufferInfo b) {
        bufferOffset = b.offset;
        bufferIndex = b.index;
        processor = b.processor;
        compressedBuffer = b.compressed;
        compression = null;
        if (b.compressed) {
            return loadCompressed(b);
        }
        buffer = file.slice(b.offset, b.available);
        limit = b.available;
        end = Math.min(b.dataEnd, b.available);
        nextPos = HEADER;
        return true;
    }

    /**
     * Decompresses a buffer up to its data end, and on to the next 4 KiB boundary (an LZNT1 chunk; bytes there must
     * be padding, and the walk reports any that are not), within the cursor's {@link InflateMemory} bounds: a buffer
     * that would exceed one (ratio, work, memory) is skipped with an {@link EtlWarning.Kind#INFLATION_LIMIT} warning
     * before anything is decoded.
     */
    private boolean loadCompressed(BufferInfo b) {
        int announced = b.dataEnd - HEADER;
        int stored = b.available - HEADER;
        int room = (int) Math.min(file.logicalBufferSize() - HEADER,
                ((long) announced + Lznt1.CHUNK - 1) / Lznt1.CHUNK * Lznt1.CHUNK);
        String cut = null;
        long plausible = (long) InflateMemory.MAX_RATIO * stored;
        if (room > plausible) {
            if (announced > plausible) {
                cut = "it announces " + announced + " bytes of data from " + stored + " stored bytes, more than "
                        + InflateMemory.MAX_RATIO + " to 1 (the reader's bound on one buffer's compression ratio)";
            }
            room = (int) plausible;
        }
        long left = memory.budgetLeft();
        if (room > left) {
            if (announced > left) {
                cut = memory.budgetSpent();
            }
            room = (int) left;
        }
        if (cut != null) {
            file.warn(EtlWarning.Kind.INFLATION_LIMIT, b.offset, b.index, cut + "; the buffer's " + announced
                    + " bytes of data are not decoded and its records are skipped");
            return false;
        }
        int capacity = HEADER + room;
        if (inflated == null || inflated.length < capacity) {
            byte[] grown = memory.grow(inflated, capacity);
            if (grown == null) {
                file.warn(EtlWarning.Kind.INFLATION_LIMIT, b.offset, b.index, memory.refusal(inflated, capacity)
                        + "; the buffer's records are skipped");
                return false;
            }
            inflated = grown;
            inflatedView = ByteBuffer.wrap(inflated).order(ByteOrder.LITTLE_ENDIAN);
        }
        // One bulk copy out of the mapping; decoding from an array is several times faster.
        byte[] compressed = memory.scratch(b.available);
        file.slice(b.offset, b.available).get(0, compressed, 0, b.available);
        System.arraycopy(compressed, 0, inflated, 0, HEADER);
        long answer = BufferCompression.inflate(compressed, HEADER, b.available, inflated, HEADER, room, announced);
        compression = BufferCompression.format(answer);
        if (compression == null) {
            memory.spend(room);
            file.warn(EtlWarning.Kind.BAD_COMPRESSED_DATA, b.offset, b.index, BufferCompression.whyNotDecodable(
                    compressed, HEADER, b.available, inflated, HEADER, room, announced)
                    + "; the buffer's records are skipped");
            return false;
        }
        int produced = BufferCompression.produced(answer);
        memory.spend(produced);
        buffer = inflatedView;
        limit = HEADER + produced;
        end = Math.min(b.dataEnd, limit);
        if (produced < announced) {
            file.warn(EtlWarning.Kind.BAD_COMPRESSED_DATA, b.offset, b.index, compression + " data ends after "
                    + produced + " of the " + announced + " bytes the buffer header announces (data end 0x"
                    + Integer.toHexString(b.dataEnd) + "); the records it holds are read");
        }
        nextPos = HEADER;
        return true;
    }

    /**
     * Ends the walk of the current buffer at {@code p}: what lies in {@code [p, limit)} must be padding (0xFF, as
     * ETW fills its buffers, or 0x00). A record cannot hide in such bytes, since its marker has the 0x80 flag bit
     * and is never 0xFF throughout; so any other byte is reported, once per buffer, with its offset.
     */
    private boolean endOfBuffer(int p) {
        final ByteBuffer b = buffer;
        int q = p;
        while (q + 8 <= limit) {
            long v = b.getLong(q);
            if (v != 0 && v != -1L) {
                break;
            }
            q += 8;
        }
        while (q < limit) {
            byte x = b.get(q);
            if (x != 0 && x != WmiBufferLayout.PADDING_BYTE) {
                String where = p < end ? "inside the buffer's data (data end 0x" + Integer.toHexString(end)
                        + ") after " + (b.getInt(p) == TraceHeaderTypes.END_OF_BUFFER_MARKER && p + 4 <= end
                        ? "an end-of-buffer marker at 0x" + Integer.toHexString(p) : "the last record")
                        : "after the buffer's data end 0x" + Integer.toHexString(end)
                        + " (the larger of SavedOffset and Offset)";
                file.warn(EtlWarning.Kind.DATA_PAST_END, fileOffsetOf(q), bufferIndex, String.format(
                        "byte 0x%02x at offset 0x%x in the buffer is not padding, %s; the %d bytes from there to 0x%x"
                                + " are not read as records", x & 0xFF, q, where, limit - q, limit));
                return false;
            }
            q++;
        }
        return false;
    }

    private boolean nextRecordInBuffer() {
        final ByteBuffer b = buffer;
        for (;;) {
            final int p = nextPos;
            if (p + 4 > end) {
                return endOfBuffer(p);
            }
            final int marker = b.getInt(p);
            if (marker == TraceHeaderTypes.END_OF_BUFFER_MARKER) {
                return endOfBuffer(p);
            }
            recordsSeen++;
            if (p + 8 > end) {
                return skipRest(p, "a record header is cut by the end of the buffer data");
            }
            final int flags = marker >>> 24;
            final int type;
            if ((flags & 0xC0) == 0xC0) {
                type = (marker >>> 16) & 0xFF;
            } else if ((flags & 0xD0) == 0x90) {
                type = TraceHeaderTypes.MESSAGE;
            } else {
                return skipRest(p, String.format("unknown record marker 0x%08x", marker));
            }
            final int recordSize;
            final int minimum;
            final HeaderKind k;
            switch (type) {
                case TraceHeaderTypes.SYSTEM32, TraceHeaderTypes.SYSTEM64 -> {
                    k = HeaderKind.SYSTEM_TRACE_HEADER;
                    recordSize = Le.u16(b, p + SystemTraceHeaderLayout.SIZE);
                    minimum = SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + SystemTraceHeaderLayout.extensionBytes(marker & 0xFFFF);
                }
                case TraceHeaderTypes.COMPACT32, TraceHeaderTypes.COMPACT64 -> {
                    k = HeaderKind.SYSTEM_TRACE_HEADER;
                    recordSize = Le.u16(b, p + SystemTraceHeaderLayout.SIZE);
                    minimum = SystemTraceHeaderLayout.COMPACT_HEADER_SIZE + SystemTraceHeaderLayout.extensionBytes(marker & 0xFFFF);
                }
                case TraceHeaderTypes.PERFINFO32, TraceHeaderTypes.PERFINFO64 -> {
                    k = HeaderKind.PERFINFO_TRACE_HEADER;
                    recordSize = Le.u16(b, p + SystemTraceHeaderLayout.SIZE);
                    minimum = SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE + SystemTraceHeaderLayout.extensionBytes(marker & 0xFFFF);
                }
                case TraceHeaderTypes.FULL_HEADER32, TraceHeaderTypes.FULL_HEADER64 -> {
                    k = HeaderKind.EVENT_TRACE_HEADER;
                    recordSize = marker & 0xFFFF;
                    minimum = ClassicLayout.HEADER_SIZE;
                }
                case TraceHeaderTypes.INSTANCE32, TraceHeaderTypes.INSTANCE64 -> {
                    k = HeaderKind.EVENT_INSTANCE_GUID_HEADER;
                    recordSize = marker & 0xFFFF;
                    minimum = ClassicLayout.INSTANCE_HEADER_SIZE;
                }
                case TraceHeaderTypes.EVENT_HEADER32, TraceHeaderTypes.EVENT_HEADER64 -> {
                    k = HeaderKind.EVENT_HEADER;
                    recordSize = marker & 0xFFFF;
                    minimum = EventHeaderLayout.HEADER_SIZE;
                }
                case TraceHeaderTypes.MESSAGE -> {
                    k = HeaderKind.MESSAGE_TRACE_HEADER;
                    recordSize = marker & 0xFFFF;
                    minimum = ClassicLayout.MESSAGE_HEADER_SIZE;
                }
                default -> {
                    int length = marker & 0xFFFF;
                    if (length < 8 || p + length > end) {
                        return skipRest(p, String.format("record of unsupported header type 0x%02x with unusable size %d",
                                type, length));
                    }
                    recordsWarned++; // before the listener, which may throw
                    file.warn(EtlWarning.Kind.UNSUPPORTED_RECORD, fileOffsetOf(p), bufferIndex,
                            String.format("record of unsupported header type 0x%02x (%d bytes) skipped", type, length));
                    nextPos = p + WmiBufferLayout.align(length);
                    continue;
                }
            }
            if (recordSize < minimum) {
                return skipRest(p, String.format("record size %d is below the %d bytes of header type 0x%02x",
                        recordSize, minimum, type));
            }
            if (p + recordSize > end) {
                return skipRest(p, String.format("record of %d bytes runs past the end of the buffer data (offset 0x%x)",
                        recordSize, end));
            }
            nextPos = p + WmiBufferLayout.align(recordSize);
            pos = p;
            size = recordSize;
            headerType = type;
            kind = k;
            extCount = 0;
            userDataOffset = p + minimum;
            switch (k) {
                case PERFINFO_TRACE_HEADER -> timestamp = b.getLong(p + SystemTraceHeaderLayout.PERFINFO_TIMESTAMP);
                case EVENT_HEADER -> {
                    if ((b.getShort(p + EventHeaderLayout.FLAGS) & EventHeaderLayout.FLAG_EXTENDED_INFO) != 0
                            && !readExtendedItems(b, p)) {
                        continue;
                    }
                    timestamp = b.getLong(p + EventHeaderLayout.TIMESTAMP);
                }
                case MESSAGE_TRACE_HEADER -> {
                    if (!readMessageFields(b, p)) {
                        continue;
                    }
                }
                // SYSTEM (full and compact), classic and instance headers all keep it at 0x10.
                default -> timestamp = b.getLong(p + SystemTraceHeaderLayout.SYSTEM_TIME);
            }
            recordsRead++;
            return true;
        }
    }

    /** Indexes the extended data items; false (record skipped, warned) when they do not fit the record. */
    private boolean readExtendedItems(ByteBuffer b, int p) {
        int q = p + EventHeaderLayout.HEADER_SIZE;
        int limit = p + size;
        int n = 0;
        for (;;) {
            if (q + EventHeaderLayout.EXT_ITEM_HEADER_SIZE > limit) {
                return skipRecord(p, "extended data item " + n + " starts past the end of the record");
            }
            int itemSize = Le.u16(b, q + EventHeaderLayout.EXT_ITEM_SIZE);
            int dataSize = Le.u16(b, q + EventHeaderLayout.EXT_ITEM_DATA_SIZE);
            if (itemSize < EventHeaderLayout.EXT_ITEM_HEADER_SIZE
                    || dataSize > itemSize - EventHeaderLayout.EXT_ITEM_HEADER_SIZE || q + itemSize > limit) {
                return skipRecord(p, "extended data item " + n + " has ItemSize " + itemSize + " and DataSize "
                        + dataSize + ", which do not fit the record");
            }
            if (n == extOffsets.length) {
                extOffsets = Arrays.copyOf(extOffsets, n * 2);
            }
            extOffsets[n++] = q;
            int linkage = Le.u16(b, q + EventHeaderLayout.EXT_ITEM_LINKAGE);
            q += itemSize;
            if ((linkage & 1) == 0) {
                break;
            }
        }
        extCount = n;
        userDataOffset = q;
        return true;
    }

    /** Locates the optional MESSAGE_TRACE_HEADER fields; false (skipped, warned) when they overflow. */
    private boolean readMessageFields(ByteBuffer b, int p) {
        int options = Le.u16(b, p + ClassicLayout.MESSAGE_OPTION_FLAGS);
        int q = p + ClassicLayout.MESSAGE_HEADER_SIZE;
        messageSequenceAt = -1;
        messageGuidAt = -1;
        messageComponentAt = -1;
        messageSystemInfoAt = -1;
        int timestampAt = -1;
        if ((options & MESSAGE_SEQUENCE) != 0) {
            messageSequenceAt = q;
            q += 4;
        }
        if ((options & MESSAGE_GUID) != 0) {
            messageGuidAt = q;
            q += 16;
        } else if ((options & MESSAGE_COMPONENT_ID) != 0) {
            messageComponentAt = q;
            q += 4;
        }
        if ((options & MESSAGE_TIMESTAMP) != 0) {
            timestampAt = q;
            q += 8;
        }
        if ((options & MESSAGE_SYSTEM_INFO) != 0) {
            messageSystemInfoAt = q;
            q += 8;
        }
        if (q > p + size) {
            return skipRecord(p, String.format("message option flags 0x%04x need %d bytes, the record has %d",
                    options, q - p, size));
        }
        if (timestampAt >= 0) {
            timestamp = b.getLong(timestampAt);
        }
        // Without a timestamp a message keeps the previous record's time (it was logged after it).
        userDataOffset = q;
        return true;
    }

    private boolean skipRecord(int p, String why) {
        recordsWarned++; // before the listener, which may throw
        file.warn(EtlWarning.Kind.BAD_RECORD, fileOffsetOf(p), bufferIndex, why + "; record skipped");
        return false;
    }

    private boolean skipRest(int p, String why) {
        recordsWarned++; // before the listener, which may throw
        file.warn(EtlWarning.Kind.BAD_RECORD, fileOffsetOf(p), bufferIndex,
                why + " (offset 0x" + Integer.toHexString(p) + " in the buffer); rest of the buffer skipped");
        return false;
    }
}
