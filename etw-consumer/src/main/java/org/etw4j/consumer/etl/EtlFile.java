package org.etw4j.consumer.etl;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;

/**
 * An .etl file opened for reading: memory-mapped, read as a stream of records whose memory use does not
 * grow with the file (a time-ordered cursor holds one buffer per processor, decompressed when needed, and
 * at most 256 MiB of decompressed buffers in all, beyond which it throws {@link EtlFormatException}).
 *
 * <p>Thread-safety and close contract: {@link #open(Path)} reads the logfile header and walks the buffer
 * headers once (counting buffers, checking the chain, reporting problems). The header, counters and
 * {@link #cursor()} may be used from any thread; each {@link EtlCursor} (and the {@link EtlRecordView} it
 * reuses) belongs to one thread. {@link #close()} is idempotent and unmaps the file: any cursor, view or
 * {@link EtlRecordView#userData()} buffer of this file then throws {@link IllegalStateException} instead
 * of reading freed memory; {@link EtlRecord} copies stay valid. Problems in the buffers are skipped and
 * counted ({@link #warningCount()}, {@link EtlReadOptions#listener()}) or thrown
 * ({@link EtlReadOptions#strict()}) as {@link EtlFormatException}; an unreadable header always throws.
 *
 * <p>Format: ntwmi.h, evntrace.h and evntcons.h layouts, read as TraceEvent and dissect.etl do. Limits: a mapped file changed or truncated
 * by another process while being read can make the JVM throw {@link InternalError}; compressed buffers
 * are MS-XCA Plain LZ77 (the format the corpus' compressed files use) or LZNT1, chosen per buffer by the
 * rule {@code BufferCompression} documents; LZNT1 support follows the MS-XCA specification but is
 * unverified on a real .etl file (none was available).
 */
public final class EtlFile implements AutoCloseable {
    /** Largest logical buffer size accepted (ETW's own maximum is 16 MiB, ntwmi.h MAX_ETW_BUFFER_SIZE). */
    public static final int MAX_BUFFER_SIZE = 64 << 20;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;

    private final Path path;
    private final String name;
    private final EtlReadOptions options;
    private final Arena arena;
    private final MemorySegment segment;
    private final long size;
    private final EtlLogfileHeader header;
    private final EtlClock clock;
    private final int logicalBufferSize;
    private final boolean compressedMode;
    private final LongAdder warnings = new LongAdder();
    private final LongAdder cursors = new LongAdder();
    private final AtomicBoolean closed = new AtomicBoolean();
    private long chainEnd;
    private long bufferCount;
    private int[] processors;
    /**
     * Per processor (as {@link #processors}), its usable buffers in time order as (offset, index) pairs, when the file does not
     * store them so (a wrapped circular file); null when every processor's buffers are in time order on disk.
     */
    private long[][] timeOrderedOffsets;

    private EtlFile(Path path, EtlReadOptions options, Arena arena, MemorySegment segment) {
        this.path = path;
        Path fileName = path.getFileName();
        this.name = fileName == null ? path.toString() : fileName.toString();
        this.options = options;
        this.arena = arena;
        this.segment = segment;
        this.size = segment.byteSize();
        this.header = readLogfileHeader();
        this.clock = header.clock();
        this.logicalBufferSize = (int) header.bufferSize();
        this.compressedMode = header.compressedMode();
    }

    /** Opens a file leniently (problems in buffers are skipped and counted). */
    public static EtlFile open(Path path) throws IOException {
        return open(path, EtlReadOptions.DEFAULT);
    }

    /**
     * Opens a file.
     *
     * @throws IOException          if the file cannot be read or mapped
     * @throws EtlFormatException   if it is not an .etl file, or (strict mode) any buffer is malformed
     */
    public static EtlFile open(Path path, EtlReadOptions options) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                long length = channel.size();
                if (length < HEADER + SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + LogfileHeaderLayout.SIZE_32) {
                    throw new EtlFormatException(String.valueOf(path.getFileName()),
                            "not an .etl file: " + length + " bytes is smaller than a header buffer", 0, 0);
                }
                segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, length, arena);
            }
            EtlFile file = new EtlFile(path, options, arena, segment);
            file.scanBuffers();
            return file;
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** The path the file was opened from. */
    public Path path() {
        return path;
    }

    /** The file name, as used in messages and summaries. */
    public String name() {
        return name;
    }

    /** The logfile header facts. */
    public EtlLogfileHeader header() {
        return header;
    }

    /** Converter from this trace's raw timestamps to FILETIME / Instant. */
    public EtlClock clock() {
        return clock;
    }

    /** File size in bytes. */
    public long size() {
        return size;
    }

    /** Buffers found by walking the file (may differ from {@link EtlLogfileHeader#buffersWritten()}). */
    public long bufferCount() {
        return bufferCount;
    }

    /** The distinct processor indexes of the readable buffers, ascending. */
    public int[] processorIndexes() {
        return processors.clone();
    }

    /** Whether the logfile mode says buffers may be compressed. */
    public boolean compressedMode() {
        return compressedMode;
    }

    /**
     * Cursors opened on this file so far: each is one read of the file or of a range of its buffers (for tests and
     * diagnostics that count how often a client reads a file).
     */
    public long cursorCount() {
        return cursors.sum();
    }

    /** Problems skipped so far (while opening and by all cursors). */
    public long warningCount() {
        return warnings.sum();
    }

    /** A cursor over all records in timestamp order (per-processor buffers merged). */
    public EtlCursor cursor() {
        return cursor(EtlOrder.TIME);
    }

    /** A cursor over all records in the given order. */
    public EtlCursor cursor(EtlOrder order) {
        return cursor(order, 0, Long.MAX_VALUE, EtlBufferFilter.ALL);
    }

    /**
     * A cursor over the records of the buffers whose index is in {@code [firstBuffer, endBuffer)} and that
     * {@code filter} accepts, in the given order (time order merges the range's per-processor buffers). Buffers are
     * independent (a record never spans two), so cursors over disjoint ranges that cover {@code [0,
     * bufferCount())} together deliver every record of {@link #cursor(EtlOrder)} exactly once. One exception to the
     * same record <em>values</em>: a message record (WPP) without its own timestamp takes the previous record's
     * of its stream, which a range that starts after that record cannot know (it then takes the trace's origin).
     *
     * @throws IllegalArgumentException when {@code firstBuffer < 0} or {@code endBuffer < firstBuffer}
     */
    public EtlCursor cursor(EtlOrder order, long firstBuffer, long endBuffer, EtlBufferFilter filter) {
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(filter, "filter");
        if (firstBuffer < 0 || endBuffer < firstBuffer) {
            throw new IllegalArgumentException("buffer range [" + firstBuffer + ", " + endBuffer + ") is not valid");
        }
        return MergingCursor.ofStreams(streams(order, firstBuffer, endBuffer, filter));
    }

    /**
     * One cursor over the records of several files in time order: merged by the FILETIME each file's own clock
     * gives, ties broken by the order of {@code files} (within a file, the file's own time order). Closing the
     * files is the caller's job.
     *
     * @throws IllegalArgumentException when {@code files} is empty
     */
    public static EtlCursor merge(List<EtlFile> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no files");
        }
        return MergingCursor.ofFiles(files);
    }

    /** The record streams of a cursor (one per processor in time order, one in file order); they share memory. */
    RecordStream[] streams(EtlOrder order, long firstBuffer, long endBuffer, EtlBufferFilter filter) {
        checkOpen();
        cursors.increment();
        return streams(order, firstBuffer, endBuffer, filter, new InflateMemory(this));
    }

    /** {@link #cursor(EtlOrder, long, long, EtlBufferFilter)} with the given decompression bounds (tests). */
    EtlCursor cursor(EtlOrder order, long firstBuffer, long endBuffer, EtlBufferFilter filter, InflateMemory memory) {
        return MergingCursor.ofStreams(streams(order, firstBuffer, endBuffer, filter, memory));
    }

    private RecordStream[] streams(EtlOrder order, long firstBuffer, long endBuffer, EtlBufferFilter filter,
                                   InflateMemory memory) {
        if (order == EtlOrder.FILE) {
            return new RecordStream[] {new RecordStream(this, -1, 0, memory, firstBuffer, endBuffer, filter)};
        }
        RecordStream[] streams = new RecordStream[processors.length];
        for (int i = 0; i < streams.length; i++) {
            streams[i] = new RecordStream(this, processors[i], i, memory, firstBuffer, endBuffer, filter);
        }
        return streams;
    }

    /** Unmaps the file. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "EtlFile[" + path + (isClosed() ? ", closed]" : "]");
    }

    // ---------------------------------------------------------------------------------- internals

    int logicalBufferSize() {
        return logicalBufferSize;
    }

    long chainEnd() {
        return chainEnd;
    }

    /** The buffer's {@code WMI_BUFFER_HEADER.TimeStamp} (flush time, raw clock) at {@code offset}. */
    long bufferTimestamp(long offset) {
        return segment.get(LONG, offset + WmiBufferLayout.TIMESTAMP);
    }

    /** A little-endian, read-only view of {@code length} bytes at {@code offset}. */
    ByteBuffer slice(long offset, int length) {
        return segment.asSlice(offset, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    void warn(EtlWarning.Kind kind, long offset, long bufferIndex, String message) {
        if (options.strict()) {
            throw new EtlFormatException(name, kind + ": " + message, offset, bufferIndex);
        }
        warnings.increment();
        options.listener().onWarning(new EtlWarning(kind, name, offset, bufferIndex, message));
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    private EtlFormatException headerError(String problem, long offset) {
        return new EtlFormatException(name, "not a readable .etl file: " + problem, offset, 0);
    }

    private EtlLogfileHeader readLogfileHeader() {
        int bufferFlags = segment.get(SHORT, WmiBufferLayout.BUFFER_FLAG) & 0xFFFF;
        int marker = segment.get(INT, HEADER);
        int type = TraceHeaderTypes.headerType(marker);
        int hook = segment.get(SHORT, HEADER + SystemTraceHeaderLayout.HOOK_ID) & 0xFFFF;
        boolean logfileHeader = TraceHeaderTypes.markerFlags(marker) == TraceHeaderTypes.MARKER_STRUCTURED
                && (type == TraceHeaderTypes.SYSTEM32 || type == TraceHeaderTypes.SYSTEM64)
                && hook == SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER;
        // A file that is not a trace at all (text, an image) has arbitrary bits where the buffer flags are: without
        // a logfile header record where every .etl has one, it is "not an .etl file", whatever those bits say (the
        // header buffer of compressed traces is written uncompressed: every compressed corpus file has it so).
        if (!logfileHeader) {
            throw new EtlFormatException(name, String.format("not an .etl file: the first record (marker 0x%08x, "
                    + "hook 0x%04x) is not a logfile header", marker, hook), HEADER, 0);
        }
        if ((bufferFlags & WmiBufferLayout.FLAG_COMPRESSED) != 0) {
            throw headerError("the header buffer is marked compressed, which this reader does not support", 0);
        }
        boolean is64 = type == TraceHeaderTypes.SYSTEM64;
        int fixed = is64 ? LogfileHeaderLayout.SIZE_64 : LogfileHeaderLayout.SIZE_32;
        int recordSize = segment.get(SHORT, HEADER + SystemTraceHeaderLayout.SIZE) & 0xFFFF;
        int minimum = SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE + fixed;
        if (recordSize < minimum || HEADER + (long) recordSize > size) {
            throw headerError("logfile header record size " + recordSize + " (needs " + minimum
                    + " bytes, file has " + (size - HEADER) + " after the buffer header)", HEADER);
        }
        ByteBuffer b = slice(HEADER, recordSize);
        int l = SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;
        long bufferSize = Le.u32(b, l + LogfileHeaderLayout.BUFFER_SIZE);
        if (bufferSize < HEADER + minimum || bufferSize > MAX_BUFFER_SIZE) {
            throw headerError("BufferSize " + bufferSize + " is outside " + (HEADER + minimum) + ".." + MAX_BUFFER_SIZE,
                    HEADER + l + LogfileHeaderLayout.BUFFER_SIZE);
        }
        int nameStart = l + fixed;
        String loggerName = Le.utf16z(b, nameStart, recordSize);
        int second = Math.min(recordSize, nameStart + 2 * loggerName.length() + 2);
        String logFileName = Le.utf16z(b, second, recordSize);
        return new EtlLogfileHeader(
                bufferSize,
                Le.u8(b, l + LogfileHeaderLayout.MAJOR_VERSION),
                Le.u8(b, l + LogfileHeaderLayout.MINOR_VERSION),
                Le.u8(b, l + LogfileHeaderLayout.SUB_VERSION),
                Le.u8(b, l + LogfileHeaderLayout.SUB_MINOR_VERSION),
                Le.u32(b, l + LogfileHeaderLayout.PROVIDER_VERSION),
                Le.u32(b, l + LogfileHeaderLayout.NUMBER_OF_PROCESSORS),
                b.getLong(l + LogfileHeaderLayout.END_TIME),
                Le.u32(b, l + LogfileHeaderLayout.TIMER_RESOLUTION),
                Le.u32(b, l + LogfileHeaderLayout.MAXIMUM_FILE_SIZE),
                Le.u32(b, l + LogfileHeaderLayout.LOG_FILE_MODE),
                Le.u32(b, l + LogfileHeaderLayout.BUFFERS_WRITTEN),
                Le.u32(b, l + LogfileHeaderLayout.START_BUFFERS),
                Le.u32(b, l + LogfileHeaderLayout.POINTER_SIZE),
                Le.u32(b, l + LogfileHeaderLayout.EVENTS_LOST),
                Le.u32(b, l + LogfileHeaderLayout.CPU_SPEED_MHZ),
                b.getInt(l + (is64 ? LogfileHeaderLayout.TIME_ZONE_64 : LogfileHeaderLayout.TIME_ZONE_32)),
                b.getLong(l + (is64 ? LogfileHeaderLayout.BOOT_TIME_64 : LogfileHeaderLayout.BOOT_TIME_32)),
                b.getLong(l + (is64 ? LogfileHeaderLayout.PERF_FREQ_64 : LogfileHeaderLayout.PERF_FREQ_32)),
                b.getLong(l + (is64 ? LogfileHeaderLayout.START_TIME_64 : LogfileHeaderLayout.START_TIME_32)),
                Le.u32(b, l + (is64 ? LogfileHeaderLayout.CLOCK_TYPE_64 : LogfileHeaderLayout.CLOCK_TYPE_32)),
                Le.u32(b, l + (is64 ? LogfileHeaderLayout.BUFFERS_LOST_64 : LogfileHeaderLayout.BUFFERS_LOST_32)),
                loggerName,
                logFileName,
                type,
                b.getLong(SystemTraceHeaderLayout.SYSTEM_TIME));
    }

    /** Walks the buffer headers once: counts buffers, finds the processors, reports problems. */
    private void scanBuffers() {
        BufferInfo info = new BufferInfo();
        BitSet seen = new BitSet();
        Map<Integer, Long> lastFlush = new HashMap<>();
        boolean inTimeOrder = true;
        long offset = 0;
        long index = 0;
        while (offset < size) {
            describeBuffer(offset, index, info);
            if (info.problem != null) {
                warn(info.problemKind, offset, index, info.problem);
            }
            if (info.usable && info.truncated) {
                warn(EtlWarning.Kind.TRUNCATED_BUFFER, offset, index, "the file ends " + info.available
                        + " bytes into this " + info.step + "-byte buffer");
            }
            if (info.chainBroken) {
                break;
            }
            if (info.usable) {
                seen.set(info.processor);
                long ts = bufferTimestamp(offset);
                Long before = lastFlush.put(info.processor, ts);
                inTimeOrder &= before == null || ts >= before;
            }
            offset += info.step;
            index++;
        }
        chainEnd = Math.min(offset, size);
        bufferCount = index;
        processors = seen.stream().toArray();
        // Each processor's buffers follow each other in time on disk (their WMI_BUFFER_HEADER TimeStamp, the flush
        // time, never decreases in file order), except in a circular file that wrapped: MS Learn, "Logging Mode
        // Constants", EVENT_TRACE_FILE_MODE_CIRCULAR: "the oldest events are replaced with incoming events" and "the
        // contents of the circular log file may appear out of order". Then the streams visit them sorted.
        if (!inTimeOrder) {
            timeOrderedOffsets = sortByBufferTime();
        }
        if (bufferCount != header.buffersWritten()) {
            warn(EtlWarning.Kind.BUFFER_COUNT_MISMATCH, chainEnd, -1, "found " + bufferCount
                    + " buffers, the header says BuffersWritten = " + header.buffersWritten());
        }
    }

    /**
     * Per processor, its usable buffers sorted by buffer TimeStamp, then file position, as (offset, index) pairs.
     * Memory: 16 bytes a buffer, only for files not in time order on disk.
     */
    private long[][] sortByBufferTime() {
        BufferInfo info = new BufferInfo();
        Map<Integer, List<long[]>> byProcessor = new HashMap<>();
        long offset = 0;
        for (long index = 0; offset < chainEnd; index++) {
            describeBuffer(offset, index, info);
            if (info.usable) {
                byProcessor.computeIfAbsent(info.processor, k -> new ArrayList<>())
                        .add(new long[] {bufferTimestamp(offset), offset, index});
            }
            offset += info.step;
        }
        long[][] out = new long[processors.length][];
        for (int i = 0; i < processors.length; i++) {
            List<long[]> list = byProcessor.getOrDefault(processors[i], List.of());
            list.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
            long[] pairs = new long[2 * list.size()];
            for (int k = 0; k < list.size(); k++) {
                pairs[2 * k] = list.get(k)[1];
                pairs[2 * k + 1] = list.get(k)[2];
            }
            out[i] = pairs;
        }
        return out;
    }

    /**
     * The buffers of the {@code i}th processor in time order, as (offset, index) pairs, or null when the file stores
     * them in time order (then streams walk the file).
     */
    long[] timeOrderedOffsets(int i) {
        return timeOrderedOffsets == null ? null : timeOrderedOffsets[i];
    }

    /**
     * Reads and checks the header of the buffer at {@code offset}. Pure function of the file bytes, so
     * the opening scan and every stream agree on it.
     */
    void describeBuffer(long offset, long index, BufferInfo info) {
        info.reset(offset, index);
        long left = size - offset;
        if (left < HEADER) {
            info.chainBroken = true;
            info.fail(EtlWarning.Kind.TRUNCATED_BUFFER, "the file ends " + left + " bytes into a buffer header");
            return;
        }
        long storedSize = segment.get(INT, offset + WmiBufferLayout.BUFFER_SIZE) & 0xFFFF_FFFFL;
        info.flags = segment.get(SHORT, offset + WmiBufferLayout.BUFFER_FLAG) & 0xFFFF;
        info.type = segment.get(SHORT, offset + WmiBufferLayout.BUFFER_TYPE) & 0xFFFF;
        info.compressed = (info.flags & WmiBufferLayout.FLAG_COMPRESSED) != 0;
        int processorField = segment.get(SHORT, offset + WmiBufferLayout.PROCESSOR_INDEX) & 0xFFFF;
        info.processor = (info.flags & WmiBufferLayout.FLAG_PROC_INDEX) != 0
                ? processorField & WmiBufferLayout.PROCESSOR_INDEX_MASK
                : processorField & 0xFF;
        long saved = segment.get(INT, offset + WmiBufferLayout.SAVED_OFFSET) & 0xFFFF_FFFFL;
        long filled = segment.get(INT, offset + WmiBufferLayout.OFFSET) & 0xFFFF_FFFFL;
        if (compressedMode) {
            // Compressed-mode files store each buffer in as many bytes as its BufferSize field says.
            if (storedSize < HEADER || storedSize > logicalBufferSize) {
                info.chainBroken = true;
                info.fail(EtlWarning.Kind.BROKEN_CHAIN, "BufferSize " + storedSize + " is outside " + HEADER + ".."
                        + logicalBufferSize + "; the buffers after this one cannot be located");
                return;
            }
            info.step = storedSize;
        } else {
            info.step = logicalBufferSize;
        }
        info.available = (int) Math.min(info.step, left);
        info.truncated = info.available < info.step;
        // The end of the records. ntwmi.h calls SavedOffset (0x04) a "temp saved offset" and Offset (0x30) the
        // "offset when flushing (can overlap SavedOffset)"; dissect.etl walks to Offset (etl.py Buffer.filled_bytes,
        // fox-it/dissect.etl@f59d1d9e). The corpus has them equal in every buffer; where they differ the records up
        // to the larger are read, so that neither field can hide records the other covers (etw-formats.md 3.2).
        long limit = info.compressed ? logicalBufferSize : info.step;
        boolean savedInside = saved >= HEADER && saved <= limit;
        boolean filledInside = filled >= HEADER && filled <= limit;
        info.dataEnd = (int) (savedInside && filledInside ? Math.max(saved, filled) : savedInside ? saved : filled);
        if (!compressedMode && storedSize != logicalBufferSize) {
            info.fail(EtlWarning.Kind.BAD_BUFFER, "BufferSize field " + storedSize
                    + " differs from the logfile header's " + logicalBufferSize);
        } else if (!savedInside && !filledInside) {
            info.fail(EtlWarning.Kind.BAD_BUFFER, "SavedOffset " + saved + " and Offset " + filled + " are both outside "
                    + HEADER + ".." + limit);
        } else if (info.compressed && info.truncated) {
            info.fail(EtlWarning.Kind.TRUNCATED_BUFFER, "the file ends " + info.available
                    + " bytes into this compressed buffer; its records are skipped");
        } else {
            info.usable = true;
            // A zero field was not written (some writers leave Offset at 0); any other value outside is reported.
            if ((!savedInside && saved != 0) || (!filledInside && filled != 0)) {
                info.problemKind = EtlWarning.Kind.BAD_BUFFER;
                info.problem = (savedInside ? "Offset " + filled : "SavedOffset " + saved) + " is outside " + HEADER
                        + ".." + limit + "; the records are read up to " + (savedInside ? "SavedOffset " : "Offset ")
                        + info.dataEnd;
            }
        }
    }
}
