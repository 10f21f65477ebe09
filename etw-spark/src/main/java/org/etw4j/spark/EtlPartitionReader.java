package org.etw4j.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.unsafe.types.UTF8String;
import org.etw4j.Guid;
import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.LearnedContext;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.consumer.TraceFile;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.etl.EtlClock;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.EtlWarning;
import org.etw4j.consumer.etl.EtlWarningListener;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.format.EventHeaderLayout;

/**
 * Reads one {@link EtlInputPartition}: its buffers' records in time order, as rows of the scan's columns. Thin glue
 * around the consumer's one read path ({@link TraceFile} over the task's open file, with the partition's buffer
 * range and the time bound's buffer filter as {@link ReadSettings}), as Spark's own CSV reader is around its parser.
 *
 * <p>Not thread-safe: Spark drives one reader from one task thread; {@link #close()} (idempotent) unmaps the file.
 * Work per task: opening walks every buffer header of the file (cheap, no record is read); when a decoded column is
 * needed and option {@code context} is on, a first pass over the whole file's records learns the trace's
 * processes, volume mapping, file names and in-band manifests (it decodes only those events; the others are
 * skipped by a header test), so a split decodes exactly as a whole-file read; that pass runs once per file in
 * this JVM and its result is shared by the file's other splits ({@link SharedContexts}); then the partition's own
 * buffers are
 * read (those the time filter cannot exclude), filtered by the pushed header filters, and decoded only when a
 * decoded column is selected.
 *
 * <p>Problems: a file that cannot be opened, and every malformed buffer or record the reader steps over (an
 * {@link EtlWarning}, with its file offset), are handled per {@link EtlParseMode}. Each belongs to the partition
 * holding its buffer (file-wide ones to the first), so a split read reports each exactly once.
 */
final class EtlPartitionReader implements PartitionReader<InternalRow> {
    private static final Logger LOG = Logger.getLogger("org.etw4j.spark");

    private final EtlInputPartition partition;
    private final EtlOptions options;
    private final EtlSchema schema;
    private final EtlColumn[] columns;
    private final EtlPushdown pushdown;
    private final boolean decode;
    private final UTF8String fileName;
    /**
     * Whether the {@code provider} option names a provider (not only GUIDs): the reader then decodes each event to
     * match it, and the row shows what that decoding found, as without the option when decoding is on.
     */
    private final boolean providerNames;
    private final ArrayDeque<EtlWarning> pending = new ArrayDeque<>();
    /** Whether warnings are being collected (not during the context pass, which sees the same problems). */
    private boolean collecting = true;

    private EtlFile file;
    private EtlClock clock;
    /** The partition's records, read through the consumer's pipeline; null once nothing more can be read. */
    private TraceFile in;
    /** {@link TraceFile#recordsRead()} when the scan's record counter was last brought up to date. */
    private long recordsCounted;
    private boolean started;
    private boolean finished;
    private long problems;
    private InternalRow current;

    EtlPartitionReader(EtlInputPartition partition, EtlOptions options, EtlSchema schema, EtlPushdown pushdown) {
        this.partition = partition;
        this.options = options;
        this.schema = schema;
        this.columns = schema.columns().toArray(new EtlColumn[0]);
        this.pushdown = pushdown;
        this.decode = options.decode() && schema.needsDecoding();
        Path p = Paths.get(partition.path());
        this.fileName = UTF8String.fromString(p.toString());
        this.providerNames = options.providers().stream().anyMatch(n -> !isGuid(n));
    }

    private static boolean isGuid(String provider) {
        String t = provider.trim();
        if (t.startsWith("{") && t.endsWith("}")) {
            t = t.substring(1, t.length() - 1);
        }
        try {
            Guid.parse(t);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public boolean next() throws IOException {
        if (!started) {
            started = true;
            start();
        }
        for (;;) {
            EtlWarning w = pending.poll();
            if (w != null) {
                if (!partition.owns(w.bufferIndex())) {
                    continue;
                }
                problems++;
                if (options.mode() == EtlParseMode.PERMISSIVE) {
                    current = corruptRow(w.toString(), w.bufferIndex());
                    return true;
                }
                continue;
            }
            if (finished || in == null) {
                finish();
                return false;
            }
            boolean more;
            try {
                more = in.hasMoreEvents();
            } catch (EtlFormatException e) {
                // FAILFAST (strict reader): the first problem; otherwise a problem the reader cannot step over
                // (e.g. the decompression memory bound): the rest of this partition is unreadable.
                more = stopOn(e);
            }
            countRecords();
            if (!more) {
                finished = true;
                continue;
            }
            EventRecord e = in.readEvent();
            if (row(in.record(), e)) {
                return true;
            }
        }
    }

    /** Brings the scan's record counter up to the reader's count (records the provider option skipped included). */
    private void countRecords() {
        if (in != null) {
            long read = in.recordsRead();
            for (; recordsCounted < read; recordsCounted++) {
                EtlScanCounters.RECORDS.increment();
            }
        }
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        if (file != null) {
            file.close();
        }
    }

    // ---------------------------------------------------------------------------------------------- opening

    private void start() {
        Path p = Paths.get(partition.path());
        EtlWarningListener listener = w -> {
            if (collecting) {
                pending.add(w);
            }
        };
        EtlReadOptions read = options.mode() == EtlParseMode.FAILFAST ? EtlReadOptions.strictMode()
                : EtlReadOptions.lenient(listener);
        try {
            file = EtlFile.open(p, read);
        } catch (IOException | RuntimeException e) {
            if (options.mode() == EtlParseMode.FAILFAST) {
                throw failFast(e);
            }
            if (partition.first()) {
                pending.add(new EtlWarning(EtlWarning.Kind.BAD_BUFFER, p.getFileName().toString(), 0, -1,
                        "the file cannot be read: " + e.getMessage()));
            }
            return;
        }
        EtlScanCounters.FILES.increment();
        clock = file.clock();
        ReadSettings.Builder settings = ReadSettings.builder().traceContext(ReadSettings.TraceContext.NONE)
                .providers(options.providers())
                .buffers(partition.firstBuffer(), partition.endBuffer(), (index, processor, flush) -> {
                    if (pushdown.hasTimeBounds() && !pushdown.mayHoldMatches(clock.toFileTime(flush), flush == 0)) {
                        return false;
                    }
                    EtlScanCounters.BUFFERS.increment();
                    return true;
                });
        if (decode || !options.providers().isEmpty()) {
            options.manifests().forEach(m -> settings.manifest(Paths.get(m)));
        }
        if (decode && options.context()) {
            SharedContexts.Key key = options.shareContext() ? contextKey(p) : null;
            SharedContexts.Learned learned = key == null ? learnContext(settings.build())
                    : SharedContexts.take(key, partition.splits(), () -> learnContext(settings.build()));
            if (learned.problem() != null) {
                stopOn(learned.problem());
                return;
            }
            settings.learnedContext(learned.context());
        }
        try {
            in = TraceFile.over(settings.build(), List.of(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * The file's first pass over this task's open file, its problems not collected (each split's own read reports
     * those of its buffers): the context and the schemas it harvested, or the problem that stopped it.
     */
    private SharedContexts.Learned learnContext(ReadSettings settings) {
        collecting = false;
        try {
            EtlScanCounters.CONTEXT_PASSES.increment();
            return SharedContexts.Learned.of(LearnedContext.learn(settings, List.of(file)));
        } catch (EtlFormatException e) {
            return SharedContexts.Learned.stopped(e);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e.getMessage(), e);
        } finally {
            collecting = true;
        }
    }

    /**
     * The file's identity for {@link SharedContexts}: as this task sees it, with what else the pass depends on;
     * null when its attributes cannot be read (the split then runs a pass of its own).
     */
    private SharedContexts.Key contextKey(Path p) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
        return new SharedContexts.Key(p.toAbsolutePath().normalize().toString(), a.size(),
                a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.fileKey(), options.manifests(),
                options.mode() == EtlParseMode.FAILFAST);
    }

    /** Ends the partition on a problem the reader cannot step over: thrown in FAILFAST, else one problem row. */
    private boolean stopOn(EtlFormatException e) {
        if (options.mode() == EtlParseMode.FAILFAST) {
            throw failFast(e);
        }
        pending.add(new EtlWarning(EtlWarning.Kind.BAD_BUFFER, file.name(), e.fileOffset(),
                partition.owns(e.bufferIndex()) ? e.bufferIndex() : partition.firstBuffer(),
                "reading stopped: " + e.getMessage()));
        finished = true;
        in = null;
        return false;
    }

    private void finish() {
        if (problems > 0 && options.mode() == EtlParseMode.DROPMALFORMED) {
            LOG.warning("etl: " + partition.path() + " buffers [" + partition.firstBuffer() + ", "
                    + (partition.endBuffer() == Long.MAX_VALUE ? "end" : partition.endBuffer()) + "): " + problems
                    + " malformed buffer(s)/record(s) dropped (mode DROPMALFORMED)");
            problems = 0;
        }
    }

    private RuntimeException failFast(Exception e) {
        return new IllegalStateException("Malformed records are detected in record parsing. Parse Mode: FAILFAST. "
                + "File " + partition.path() + ": " + e.getMessage(), e);
    }

    // ---------------------------------------------------------------------------------------------- rows

    /** Builds {@link #current} from the record {@code v} of event {@code e}; false when a pushed filter refuses it. */
    private boolean row(EtlRecordView v, EventRecord e) {
        long fileTime = v.timestampFileTime();
        String providerId = v.providerId().toString().toLowerCase(Locale.ROOT);
        if (!pushdown.accepts(providerId, v.eventId(), v.level(), fileTime)) {
            return false;
        }
        boolean decoded = decode || providerNames;
        if (decoded) {
            EtlScanCounters.DECODED.increment();
        }
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = value(columns[i], v, decoded ? e : null, fileTime, providerId);
        }
        current = new GenericInternalRow(values);
        return true;
    }

    private Object value(EtlColumn c, EtlRecordView v, EventRecord e, long fileTime, String providerId) {
        return switch (c) {
            case FILE -> fileName;
            case TIMESTAMP -> Math.floorDiv(fileTime - EtlClock.FILETIME_UNIX_EPOCH, 10L);
            case FILETIME -> fileTime;
            case PROVIDER_ID -> UTF8String.fromString(providerId);
            case PROVIDER_NAME -> e == null ? null : utf8(e.providerName());
            case EVENT_ID -> v.eventId();
            case VERSION -> v.version();
            case OPCODE -> v.opcode();
            case LEVEL -> v.level();
            case TASK -> v.task();
            case KEYWORD -> v.keyword();
            case EVENT_NAME -> e == null ? null : utf8(e.eventName());
            case PID -> Integer.toUnsignedLong(v.processId());
            case TID -> Integer.toUnsignedLong(v.threadId());
            case PROCESSOR -> v.processorIndex();
            case ACTIVITY_ID -> guid(v.activityId());
            case RELATED_ACTIVITY_ID -> relatedActivity(v);
            case HEADER_KIND -> UTF8String.fromString(v.kind().name());
            case FIELDS -> e == null ? null : fieldMap(e);
            case FIELDS_JSON -> e == null ? null : UTF8String.fromString(EventFormatter.json(e));
            case BUFFER_INDEX -> v.bufferIndex();
            case RECORD_OFFSET -> v.offsetInBuffer();
            case PAYLOAD -> {
                ByteBuffer b = v.userData();
                byte[] out = new byte[b.remaining()];
                b.duplicate().get(out);
                yield out;
            }
            case CORRUPT_RECORD -> null;
        };
    }

    private InternalRow corruptRow(String message, long bufferIndex) {
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = switch (columns[i]) {
                case FILE -> fileName;
                case BUFFER_INDEX -> bufferIndex < 0 ? null : bufferIndex;
                case CORRUPT_RECORD -> UTF8String.fromString(message);
                default -> null;
            };
        }
        return new GenericInternalRow(values);
    }

    private static UTF8String utf8(String s) {
        return s == null ? null : UTF8String.fromString(s);
    }

    private static UTF8String guid(Guid g) {
        return g == null || g.isNull() ? null : UTF8String.fromString(g.toString().toLowerCase(Locale.ROOT));
    }

    /** EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID (a GUID, evntcons.h), when the record carries one. */
    private static UTF8String relatedActivity(EtlRecordView v) {
        if (v.extendedDataCount() == 0) {
            return null;
        }
        int i = v.findExtendedData(EventHeaderLayout.EXT_RELATED_ACTIVITYID);
        if (i < 0 || v.extendedDataSize(i) < Guid.BYTES) {
            return null;
        }
        return guid(Guid.readFrom(v.extendedData(i), 0));
    }

    /**
     * The fields as text by name, each value by the formatter's text rule; a repeated name gets {@code #2},
     * {@code #3}... as in {@code etw dump}'s JSON.
     */
    private static ArrayBasedMapData fieldMap(EventRecord e) {
        List<Object> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        EventFormatter.fieldTexts(e, (name, text) -> {
            int n = seen.merge(name, 1, Integer::sum);
            keys.add(UTF8String.fromString(n > 1 ? name + "#" + n : name));
            values.add(UTF8String.fromString(text));
        });
        return new ArrayBasedMapData(new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray()));
    }
}
