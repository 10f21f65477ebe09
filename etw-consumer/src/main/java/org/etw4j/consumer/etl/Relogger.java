package org.etw4j.consumer.etl;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.etw4j.Guid;
import org.etw4j.LogfileHeader;
import org.etw4j.TimestampConverter;
import org.etw4j.consumer.internal.FilePass;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;

/**
 * Copies the records of one or more .etl files that pass a filter into a new .etl file (the job of
 * {@code ITraceRelogger} / {@code xperf -merge}, in pure Java).
 *
 * <p>Threading and reuse: a configured {@code Relogger} is immutable and thread-safe; each {@link #relogTo} call
 * opens the inputs, reads them merged in time order with the pure-Java reader, writes the output with
 * {@link EtlWriter}, and closes everything before returning.
 *
 * <p>What is copied: every record kind the reader delivers (EVENT_HEADER, kernel SYSTEM / PERFINFO, classic
 * EVENT_TRACE / instance headers, WPP messages) is copied <b>byte for byte</b>, header, extended data and payload,
 * into the output buffer of the processor it was logged on. Two exceptions, counted in {@link RelogResult}: each
 * input's logfile-header record is replaced by the output's own; and when several inputs have different clocks
 * (StartTime, T0, frequency or clock type), the output uses the first input's clock and records of the other
 * inputs get their timestamp field converted (through FILETIME, so to 100 ns). Compressed input buffers are
 * written uncompressed. Other EventTrace-group records of an input's buffer 0 (header extension, hook 0x0005;
 * hook 0x0050) are copied like any record, into a data buffer. Nothing is skipped silently: unreadable input
 * buffers and records are the reader's, reported in {@link RelogResult#readerWarnings()}.
 *
 * <p>The output's header is the first input's (OS version, pointer size, clock, session name unless
 * {@link Builder#sessionName} sets one) with BufferSize the largest input's (or {@link Builder#bufferSize}),
 * NumberOfProcessors the largest, EndTime the latest, and EventsLost / BuffersLost the sums of the inputs' (those
 * events are missing from the trace whatever the filter). Windows acceptance of the output is not verified; see
 * {@link EtlWriter}.
 *
 * <p>Filters combine with AND. Event-id, level and keyword filters follow ETW's rules where a header kind lacks
 * the field: records without an id have id 0, level 0 passes any level filter, keyword 0 passes a keyword
 * filter.
 */
public final class Relogger {
    private final List<Path> inputs;
    private final Guid[] providers;
    private final int[] eventIds;
    private final int maxLevel;
    private final long anyKeyword;
    private final long allKeyword;
    private final long fromFileTime;
    private final long toFileTime;
    private final Predicate<? super EtlRecordView> predicate;
    private final int bufferSize;
    private final String sessionName;

    private Relogger(Builder b) {
        this.inputs = List.copyOf(b.inputs);
        this.providers = b.providers;
        this.eventIds = b.eventIds;
        this.maxLevel = b.maxLevel;
        this.anyKeyword = b.anyKeyword;
        this.allKeyword = b.allKeyword;
        this.fromFileTime = b.fromFileTime;
        this.toFileTime = b.toFileTime;
        this.predicate = b.predicate;
        this.bufferSize = b.bufferSize;
        this.sessionName = b.sessionName;
    }

    /** A relogger of {@code inputs} (at least one), keeping every record until filters are added. */
    public static Builder from(Path... inputs) {
        if (inputs.length == 0) {
            throw new IllegalArgumentException("no input files");
        }
        return new Builder(Arrays.asList(inputs));
    }

    /** Whether the record at the view passes every filter. */
    public boolean accepts(EtlRecordView r) {
        if (providers != null) {
            long msb = r.providerIdMostSignificantBits();
            long lsb = r.providerIdLeastSignificantBits();
            boolean hit = false;
            for (Guid g : providers) {
                if (g.mostSignificantBits() == msb && g.leastSignificantBits() == lsb) {
                    hit = true;
                    break;
                }
            }
            if (!hit) {
                return false;
            }
        }
        if (eventIds != null && Arrays.binarySearch(eventIds, r.eventId()) < 0) {
            return false;
        }
        int level = r.level();
        if (level != 0 && level > maxLevel) {
            return false;
        }
        long keyword = r.keyword();
        if (keyword != 0 && (anyKeyword != -1L && (keyword & anyKeyword) == 0 || (keyword & allKeyword) != allKeyword)) {
            return false;
        }
        if (fromFileTime != Long.MIN_VALUE || toFileTime != Long.MAX_VALUE) {
            long t = r.timestampFileTime();
            if (t < fromFileTime || t >= toFileTime) {
                return false;
            }
        }
        return predicate == null || predicate.test(r);
    }

    /** Writes the records that pass the filters to {@code output} (created or replaced). */
    public RelogResult relogTo(Path output) throws IOException {
        Objects.requireNonNull(output, "output");
        List<EtlFile> files = FilePass.open(inputs, EtlReadOptions.DEFAULT);
        try {
            return relog(files, output);
        } finally {
            files.forEach(EtlFile::close);
        }
    }

    private RelogResult relog(List<EtlFile> files, Path output) throws IOException {
        EtlFile base = files.get(0);
        LogfileHeader header = outputHeader(files, output);
        long startRaw = base.header().headerTimestamp();
        TimestampConverter outClock = header.timestampConverter(startRaw);
        boolean[] sameClock = new boolean[files.size()];
        for (int i = 0; i < files.size(); i++) {
            sameClock[i] = sameClock(base.header(), files.get(i).header());
        }
        long read = 0;
        long written = 0;
        long filtered = 0;
        long headers = 0;
        long retimed = 0;
        EtlWriter writer = EtlWriter.create(output, header, startRaw);
        try {
            FilePass pass = FilePass.over(files);
            while (pass.advance()) {
                EtlRecordView r = pass.view();
                read++;
                if (isLogfileHeader(r)) {
                    headers++;
                    continue;
                }
                if (!accepts(r)) {
                    filtered++;
                    continue;
                }
                if (sameClock[files.indexOf(r.file())]) {
                    writer.writeRecord(r.recordBytes(), 0, r.processorIndex());
                } else {
                    writer.writeRecord(r.recordBytes(), 0, r.processorIndex(), outClock.toRaw(r.timestampFileTime()));
                    retimed++;
                }
                written++;
            }
            writer.close(header);
        } finally {
            writer.close();
        }
        long warnings = 0;
        for (EtlFile f : files) {
            warnings += f.warningCount();
        }
        return new RelogResult(output, read, written, filtered, headers, retimed, writer.buffersWritten(), header.bufferSize(), warnings);
    }

    /** The first record of buffer 0: SYSTEM_TRACE_HEADER, EventTrace group, hook 0x0000 (etw-formats.md 3.5). */
    private static boolean isLogfileHeader(EtlRecordView r) {
        return r.bufferIndex() == 0 && r.kind() == HeaderKind.SYSTEM_TRACE_HEADER
                && r.hookId() == SystemTraceHeaderLayout.HOOK_LOGFILE_HEADER;
    }

    private static boolean sameClock(EtlLogfileHeader a, EtlLogfileHeader b) {
        return a.clockTypeCode() == b.clockTypeCode() && a.startTime() == b.startTime()
                && a.headerTimestamp() == b.headerTimestamp() && a.perfFreq() == b.perfFreq() && a.cpuSpeedMhz() == b.cpuSpeedMhz();
    }

    private LogfileHeader outputHeader(List<EtlFile> files, Path output) {
        EtlLogfileHeader h = files.get(0).header();
        long size = 0;
        long processors = 0;
        long end = 0;
        long lost = 0;
        long buffersLost = 0;
        for (EtlFile f : files) {
            EtlLogfileHeader x = f.header();
            size = Math.max(size, x.bufferSize());
            processors = Math.max(processors, x.numberOfProcessors());
            end = Math.max(end, x.endTime());
            lost += x.eventsLost();
            buffersLost += x.buffersLost();
        }
        if (bufferSize > 0) {
            if (bufferSize < size) {
                throw new IllegalArgumentException("buffer size " + bufferSize + " is smaller than an input's " + size
                        + ": its largest records might not fit");
            }
            size = bufferSize;
        }
        return new LogfileHeader((int) size, h.majorVersion(), h.minorVersion(), h.subVersion(), h.subMinorVersion(),
                (int) h.osBuild(), (int) processors, end, (int) h.timerResolution(), 0,
                (int) h.logFileMode() & ~LogfileHeaderLayout.MODE_COMPRESSED, 1, (int) h.pointerSize(),
                (int) Math.min(Integer.MAX_VALUE, lost), (int) h.cpuSpeedMhz(), h.bootTime(), h.perfFreq(), h.startTime(),
                (int) h.clockTypeCode(), (int) Math.min(Integer.MAX_VALUE, buffersLost), h.timeZoneBiasMinutes(),
                sessionName != null ? sessionName : h.sessionName(), output.toAbsolutePath().toString());
    }

    /**
     * Configures a {@link Relogger}.
     *
     * <p>Not thread-safe; reusable ({@link #build()} snapshots it).
     */
    public static final class Builder {
        private final List<Path> inputs;
        private Guid[] providers;
        private int[] eventIds;
        private int maxLevel = 255;
        private long anyKeyword = -1L;
        private long allKeyword;
        private long fromFileTime = Long.MIN_VALUE;
        private long toFileTime = Long.MAX_VALUE;
        private Predicate<? super EtlRecordView> predicate;
        private int bufferSize;
        private String sessionName;

        private Builder(List<Path> inputs) {
            for (Path p : inputs) {
                Objects.requireNonNull(p, "input");
            }
            this.inputs = new ArrayList<>(inputs);
        }

        /** Keeps only records of these providers (kernel records: their group GUID; classic: the event class). */
        public Builder providers(Guid... ids) {
            this.providers = ids.clone();
            return this;
        }

        /** Keeps only records with these event ids. */
        public Builder eventIds(int... ids) {
            int[] sorted = ids.clone();
            Arrays.sort(sorted);
            this.eventIds = sorted;
            return this;
        }

        /** Keeps only records of level {@code level} or more severe (lower numbers), plus level 0. */
        public Builder maxLevel(int level) {
            this.maxLevel = level;
            return this;
        }

        /** Keeps records whose keyword shares a bit with {@code any} (keyword 0 always passes). */
        public Builder keywordsAny(long any) {
            this.anyKeyword = any;
            return this;
        }

        /** Keeps records whose keyword has every bit of {@code all} (keyword 0 always passes). */
        public Builder keywordsAll(long all) {
            this.allKeyword = all;
            return this;
        }

        /** Keeps records timestamped in {@code [from, to)}; either may be null for no bound. */
        public Builder timeRange(Instant from, Instant to) {
            this.fromFileTime = from == null ? Long.MIN_VALUE : TimestampConverter.toFileTime(from);
            this.toFileTime = to == null ? Long.MAX_VALUE : TimestampConverter.toFileTime(to);
            return this;
        }

        /** Keeps records {@code p} accepts (called with the reader's view, valid during the call only). */
        public Builder where(Predicate<? super EtlRecordView> p) {
            this.predicate = p;
            return this;
        }

        /** The output's buffer size (default: the largest input's); must not be smaller than any input's. */
        public Builder bufferSize(int bytes) {
            this.bufferSize = bytes;
            return this;
        }

        /** The output's session (logger) name (default: the first input's). */
        public Builder sessionName(String name) {
            this.sessionName = name;
            return this;
        }

        public Relogger build() {
            return new Relogger(this);
        }

        /** Builds and runs: {@code build().relogTo(output)}. */
        public RelogResult relogTo(Path output) throws IOException {
            return build().relogTo(output);
        }
    }
}
