package org.etw4j.consumer.etl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.ProviderNames;
import org.etw4j.consumer.output.JsonWriter;
import org.etw4j.format.EventHeaderLayout;

/**
 * What an .etl file contains, in one pass: header facts, record counts per header kind and per provider,
 * first and last timestamps; and its JSON form (the {@code etw summary --json} output, one object per file).
 *
 * <p>Immutable value; thread-safe. Built by {@link #of(EtlFile)} with a file-order pass that allocates
 * nothing per record. Counts include every record in the buffers, the trace's own logfile-header and
 * kernel records too, as the corpus' expected facts count them. Provider names: TraceLogging providers'
 * from the PROV_TRAITS extended item, kernel groups' from a fixed table, otherwise null.
 *
 * @param file                 file name
 * @param header               logfile header facts
 * @param totalRecords         records read
 * @param recordsByHeaderKind  non-zero counts per header kind, in {@link HeaderKind} order
 * @param providers            per provider, most records first (then by id)
 * @param firstFileTime        smallest record timestamp as FILETIME (meaningless when there are no records)
 * @param lastFileTime         largest record timestamp as FILETIME
 * @param warnings             problems skipped while reading (see {@link EtlFile#warningCount()})
 */
public record EtlSummary(
        String file,
        EtlLogfileHeader header,
        long totalRecords,
        Map<HeaderKind, Long> recordsByHeaderKind,
        List<ProviderSummary> providers,
        long firstFileTime,
        long lastFileTime,
        long warnings) {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'+00:00'");

    public EtlSummary {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(header, "header");
        recordsByHeaderKind = Collections.unmodifiableMap(new EnumMap<>(recordsByHeaderKind.isEmpty()
                ? new EnumMap<>(HeaderKind.class) : recordsByHeaderKind));
        providers = List.copyOf(providers);
    }

    /**
     * Records of one provider.
     *
     * <p>Immutable value; thread-safe.
     *
     * @param id           provider id (see {@link EtlRecordView#providerId()})
     * @param name         provider name ({@link ProviderNames}' rule without decoding: a TraceLogging event's
     *                     traits, the kernel's group name {@code Windows Kernel}, the well-known providers' table),
     *                     or null when none says it
     * @param records      records of this provider
     * @param byHeaderKind non-zero counts per header kind, in {@link HeaderKind} order
     */
    public record ProviderSummary(Guid id, String name, long records, Map<HeaderKind, Long> byHeaderKind) {
        public ProviderSummary {
            Objects.requireNonNull(id, "id");
            byHeaderKind = Collections.unmodifiableMap(new EnumMap<>(byHeaderKind.isEmpty()
                    ? new EnumMap<>(HeaderKind.class) : byHeaderKind));
        }

        /**
         * The classic kernel group this GUID stands for, named as the task of its events ({@code PerfInfo} for
         * {@code Windows Kernel/PerfInfo/Sample}), or null for any other provider.
         */
        public String group() {
            return ProviderNames.kernelGroup(id);
        }

        /**
         * The name and, for a kernel group named {@code Windows Kernel}, the group: {@code Windows Kernel/PerfInfo};
         * null without a name.
         */
        public String label() {
            String g = group();
            return g == null || !org.etw4j.controller.WellKnownProviders.KERNEL.equals(name) ? name : name + "/" + g;
        }
    }

    /** Opens, summarizes and closes a file (lenient reading). */
    public static EtlSummary of(Path path) throws IOException {
        try (EtlFile file = EtlFile.open(path)) {
            return of(file);
        }
    }

    /** Summarizes an open file with one file-order pass. */
    public static EtlSummary of(EtlFile file) {
        Counter counter = new Counter();
        EtlCursor cursor = file.cursor(EtlOrder.FILE);
        while (cursor.advance()) {
            counter.add(cursor.record());
        }
        return counter.finish(file);
    }

    /**
     * Counts what a summary shows, one {@link #add} per record of a pass over a whole file (in any order), so that a
     * client making a pass anyway (the HTML report during the model's first pass) needs none of its own.
     *
     * <p>Not thread-safe; one per pass. Allocates nothing per record except a provider's name once.
     */
    public static final class Counter {
        private final long[] byKind = new long[HeaderKind.count()];
        private final ProviderTally tally = new ProviderTally();
        private long total;
        private long minTs = Long.MAX_VALUE;
        private long maxTs = Long.MIN_VALUE;

        /** Counts one record. */
        public void add(EtlRecordView r) {
            HeaderKind kind = r.kind();
            total++;
            byKind[kind.ordinal()]++;
            long ts = r.timestamp();
            minTs = Math.min(minTs, ts);
            maxTs = Math.max(maxTs, ts);
            int slot = tally.add(r.providerIdMostSignificantBits(), r.providerIdLeastSignificantBits(), kind.ordinal());
            if (kind == HeaderKind.EVENT_HEADER && tally.name(slot) == null && r.extendedDataCount() > 0) {
                tally.name(slot, traceLoggingProviderName(r));
            }
        }

        /** The summary of {@code file} from the records counted (its warnings: those the file counted so far). */
        public EtlSummary finish(EtlFile file) {
            int kinds = byKind.length;
            Map<HeaderKind, Long> kindMap = new EnumMap<>(HeaderKind.class);
            for (int k = 0; k < kinds; k++) {
                if (byKind[k] != 0) {
                    kindMap.put(HeaderKind.byOrdinal(k), byKind[k]);
                }
            }
            List<ProviderSummary> providers = new ArrayList<>();
            for (int slot = 0; slot < tally.capacity(); slot++) {
                if (!tally.used(slot)) {
                    continue;
                }
                Map<HeaderKind, Long> perKind = new EnumMap<>(HeaderKind.class);
                long sum = 0;
                for (int k = 0; k < kinds; k++) {
                    long c = tally.count(slot, k);
                    if (c != 0) {
                        perKind.put(HeaderKind.byOrdinal(k), c);
                        sum += c;
                    }
                }
                String name = tally.name(slot);
                Guid id = new Guid(tally.msb(slot), tally.lsb(slot));
                if (name == null) {
                    name = ProviderNames.known(id);
                }
                providers.add(new ProviderSummary(id, name, sum, perKind));
            }
            providers.sort(Comparator.comparingLong(ProviderSummary::records).reversed()
                    .thenComparing(ProviderSummary::id));
            EtlClock clock = file.clock();
            return new EtlSummary(file.name(), file.header(), total, kindMap, providers,
                    total == 0 ? 0 : clock.toFileTime(minTs), total == 0 ? 0 : clock.toFileTime(maxTs),
                    file.warningCount());
        }
    }

    /** The provider name in a TraceLogging event's PROV_TRAITS item, or null. */
    static String traceLoggingProviderName(EtlRecordView r) {
        int item = r.findExtendedData(EventHeaderLayout.EXT_PROV_TRAITS);
        if (item < 0) {
            return null;
        }
        // ProviderMetadata: u16 Size (whole blob), NUL-terminated UTF-8 name, traits (etw-formats.md 1.2).
        ByteBuffer data = r.extendedData(item);
        if (data.remaining() < 3) {
            return null;
        }
        int blobSize = Math.min(Le.u16(data, 0), data.remaining());
        String name = Le.utf8z(data, 2, blobSize);
        return name == null || name.isEmpty() ? null : name;
    }

    /** Formats a FILETIME as ISO-8601 UTC with microseconds (rounded down), e.g. {@code 2020-07-14T12:04:31.138736+00:00}. */
    public static String formatFileTime(long fileTime) {
        long sinceEpoch = fileTime - EtlClock.FILETIME_UNIX_EPOCH;
        long seconds = Math.floorDiv(sinceEpoch, 10_000_000L);
        int micros = (int) (Math.floorMod(sinceEpoch, 10_000_000L) / 10);
        return LocalDateTime.ofEpochSecond(seconds, micros * 1000, ZoneOffset.UTC).format(TIME);
    }

    /** Writes this summary as one JSON object. */
    public void writeJson(JsonWriter w) {
        writeJson(w, null);
    }

    /**
     * Writes this summary as a JSON object, with the members {@code more} writes (when not {@code null}) added at
     * its end: what a caller knows beside the reader's facts (e.g. {@code etw summary}'s undecoded events).
     */
    public void writeJson(JsonWriter w, java.util.function.Consumer<JsonWriter> more) {
        w.beginObject();
        w.member("file", file);
        w.member("osBuild", header.osBuild());
        w.member("pointerSize", header.pointerSize());
        w.member("bufferSize", header.bufferSize());
        w.member("buffersWritten", header.buffersWritten());
        w.member("logFileMode", "0x" + Long.toHexString(header.logFileMode()));
        w.member("clockType", header.clockTypeCode());
        w.member("sessionName", header.sessionName());
        w.member("startTime", formatFileTime(header.startTime()));
        w.member("endTime", formatFileTime(header.endTime()));
        w.member("eventsLost", header.eventsLost());
        w.name("records").beginObject();
        w.member("total", totalRecords);
        writeKinds(w, recordsByHeaderKind);
        w.endObject();
        w.name("providers").beginArray();
        for (ProviderSummary p : providers) {
            w.beginObject();
            w.member("id", p.id().toString());
            w.member("name", p.name());
            if (p.group() != null) {
                w.member("group", p.group());
            }
            w.member("records", p.records());
            writeKinds(w, p.byHeaderKind());
            w.endObject();
        }
        w.endArray();
        w.member("firstTimestamp", totalRecords == 0 ? null : formatFileTime(firstFileTime));
        w.member("lastTimestamp", totalRecords == 0 ? null : formatFileTime(lastFileTime));
        w.member("warnings", warnings);
        if (more != null) {
            more.accept(w);
        }
        w.endObject();
    }

    private static void writeKinds(JsonWriter w, Map<HeaderKind, Long> kinds) {
        w.name("byHeaderKind").beginObject();
        for (Map.Entry<HeaderKind, Long> e : kinds.entrySet()) {
            w.member(e.getKey().name(), e.getValue());
        }
        w.endObject();
    }

    /** This summary as an indented JSON object. */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        writeJson(new JsonWriter(sb, 2));
        return sb.toString();
    }

    /** Several summaries as an indented JSON array (one object per file). */
    public static String toJson(List<EtlSummary> summaries) {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb, 2);
        w.beginArray();
        for (EtlSummary s : summaries) {
            s.writeJson(w);
        }
        w.endArray();
        return sb.toString();
    }
}
