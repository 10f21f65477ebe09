package org.etw4j.consumer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.TimestampConverter;
import org.etw4j.consumer.internal.decode.ManifestCache;
import org.etw4j.consumer.internal.decode.ManifestParser;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.ProviderManifest;
import org.etw4j.consumer.internal.decode.ProviderSelection;
import org.etw4j.consumer.etl.EtlBufferFilter;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlWarningListener;
import org.etw4j.consumer.internal.ReadSettingsAccess;

/**
 * How {@link TraceFile} and {@link EventStream#openFiles(ReadSettings, Path...)} read .etl files: the manifests to
 * decode with (files, class-path resources or bytes), which providers' events to deliver, a time range, how the
 * trace's context (processes, threads, volume mapping) is learned, and whether the event object is reused; for
 * readers that need less or part of a trace: a range of one file's buffers (a split), a context a first pass
 * learned already ({@link LearnedContext}, shared by several readers of one file), strict reading, and a tally of
 * the events no schema describes.
 *
 * <p>Immutable and thread-safe; made with {@link #builder()}. {@link #DEFAULT}: no manifests beyond what the trace
 * carries, every provider, the whole trace, two passes, a reused event, lenient reading, no tally.
 */
public final class ReadSettings {
    /** Every provider, the whole trace, two passes, a reused event. */
    public static final ReadSettings DEFAULT = builder().build();

    static {
        ReadSettingsAccess.install(settings -> {
            Builder b = builder();
            b.manifests.addAll(settings.manifests);
            return b.build();
        });
    }

    /**
     * How events are attributed to the processes (and file names to the volumes) the trace's kernel events
     * describe.
     */
    public enum TraceContext {
        /** No attribution: {@link EventRecord#process()} is null. */
        NONE,
        /**
         * What the trace said up to each event (one pass): an event logged before the rundown that describes its
         * process has none. The only choice for live sessions.
         */
        ONE_PASS,
        /**
         * A first pass over the whole trace learns the context, then every event is shown through it, as
         * TraceEvent's TraceLog reads a trace (and {@code etw dump} shows it). The default for files.
         */
        TWO_PASSES
    }

    /** A manifest to register: a file, or XML bytes (a resource read when the files are opened). */
    private record Manifest(String name, Path file, byte[] xml, ClassLoader loader, String resource) {
    }

    private final List<Manifest> manifests;
    private final List<String> providers;
    private final long fromFileTime;
    private final long toFileTime;
    private final TraceContext context;
    private final boolean reuse;
    private final EtlReadOptions readOptions;
    private final long firstBuffer;
    private final long endBuffer;
    private final EtlBufferFilter bufferFilter;
    private final LearnedContext learned;
    private final boolean tallyUndecoded;

    private ReadSettings(Builder b) {
        this.manifests = List.copyOf(b.manifests);
        this.providers = List.copyOf(b.providers);
        this.fromFileTime = b.fromFileTime;
        this.toFileTime = b.toFileTime;
        this.context = b.context;
        this.reuse = b.reuse;
        this.readOptions = b.readOptions;
        this.firstBuffer = b.firstBuffer;
        this.endBuffer = b.endBuffer;
        this.bufferFilter = b.bufferFilter;
        this.learned = b.learned;
        this.tallyUndecoded = b.tallyUndecoded;
    }

    /** How the files are opened: lenient, problems counted and told to the listener {@code warnings(...)} gave. */
    EtlReadOptions readOptions() {
        return readOptions;
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The providers given (names or GUIDs; empty: every provider). */
    public List<String> providers() {
        return providers;
    }

    /** How the trace context is learned ({@link TraceContext#TWO_PASSES} when a learned context is given). */
    public TraceContext traceContext() {
        return learned != null ? TraceContext.TWO_PASSES : context;
    }

    /** Whether only part of one file's buffers is read ({@link Builder#buffers}). */
    public boolean isSplit() {
        return firstBuffer != 0 || endBuffer != Long.MAX_VALUE || bufferFilter != EtlBufferFilter.ALL;
    }

    /** The first buffer read (0 unless {@link Builder#buffers} said otherwise). */
    public long firstBuffer() {
        return firstBuffer;
    }

    /** The buffer after the last read ({@code Long.MAX_VALUE}: to the end). */
    public long endBuffer() {
        return endBuffer;
    }

    /** Which buffers of the range are read ({@link EtlBufferFilter#ALL} unless {@link Builder#buffers} said otherwise). */
    public EtlBufferFilter bufferFilter() {
        return bufferFilter;
    }

    /** The context a first pass learned already, or null ({@link Builder#learnedContext}). */
    public LearnedContext learnedContext() {
        return learned;
    }

    /** Whether the reader tallies the events no schema describes ({@link Builder#tallyUndecoded}). */
    public boolean tallyUndecoded() {
        return tallyUndecoded;
    }

    /** Whether one event object is reused (valid until the next event) rather than a copy per event. */
    public boolean reuse() {
        return reuse;
    }

    /** The first FILETIME delivered (inclusive). */
    long fromFileTime() {
        return fromFileTime;
    }

    /** The FILETIME after the last delivered (exclusive). */
    long toFileTime() {
        return toFileTime;
    }

    boolean hasTimeRange() {
        return fromFileTime != Long.MIN_VALUE || toFileTime != Long.MAX_VALUE;
    }

    /**
     * Registers the manifests with {@code registry}, in the order they were given.
     *
     * @throws ReadSetupException naming the manifest that cannot be read or parsed
     */
    void registerManifests(ManifestRegistry registry) throws ReadSetupException {
        parseManifests().forEach(registry::register);
    }

    /**
     * A provider that a manifest of these settings declares (what {@code etw live} resolves provider names against,
     * and the demo's report counts).
     *
     * @param guid   the provider's GUID
     * @param name   its name, as the manifest writes it
     * @param events the events the manifest describes for it
     */
    public record ManifestProvider(Guid guid, String name, int events) {
    }

    /**
     * The providers the manifests of these settings declare, in the order the manifests were given (reads them).
     *
     * @throws ReadSetupException naming the manifest that cannot be read or parsed
     */
    public List<ManifestProvider> manifestProviders() throws ReadSetupException {
        List<ManifestProvider> out = new ArrayList<>();
        for (ProviderManifest p : parseManifests()) {
            out.add(new ManifestProvider(p.guid(), p.name(), p.size()));
        }
        return List.copyOf(out);
    }

    /** The providers of the manifests, in the order they were given; XML through the manifest cache. */
    private List<ProviderManifest> parseManifests() throws ReadSetupException {
        List<ProviderManifest> out = new ArrayList<>();
        for (Manifest m : manifests) {
            try {
                if (m.file() != null) {
                    out.addAll(ManifestParser.parse(m.file()));
                    continue;
                }
                byte[] xml = m.xml();
                if (xml == null) {
                    try (InputStream in = m.loader().getResourceAsStream(m.resource())) {
                        if (in == null) {
                            throw new IOException("no resource " + m.resource() + " on the class path");
                        }
                        xml = in.readAllBytes();
                    }
                }
                out.addAll(ManifestCache.shared().load(xml, SchemaSource.MANIFEST));
            } catch (IOException | RuntimeException e) {
                throw new ReadSetupException("manifest " + m.name(), e);
            }
        }
        return out;
    }

    /** Registers the providers of the manifest {@code xml}, through the manifest cache (spares the XML parser). */
    static void registerXml(ManifestRegistry registry, byte[] xml) throws IOException {
        ManifestCache.shared().load(xml, SchemaSource.MANIFEST).forEach(registry::register);
    }

    @Override
    public String toString() {
        return "ReadSettings[manifests=" + manifests.stream().map(Manifest::name).toList() + ", providers=" + providers
                + ", context=" + (learned != null ? "learned" : context) + ", reuse=" + reuse
                + (isSplit() ? ", buffers=[" + firstBuffer + ", " + (endBuffer == Long.MAX_VALUE ? "end" : endBuffer) + ")" : "")
                + (tallyUndecoded ? ", tallyUndecoded" : "") + "]";
    }

    /** Builds {@link ReadSettings}. Not thread-safe; reusable ({@link #build()} snapshots it). */
    public static final class Builder {
        private final List<Manifest> manifests = new ArrayList<>();
        private final List<String> providers = new ArrayList<>();
        private long fromFileTime = Long.MIN_VALUE;
        private long toFileTime = Long.MAX_VALUE;
        private TraceContext context = TraceContext.TWO_PASSES;
        private boolean reuse = true;
        private EtlReadOptions readOptions = EtlReadOptions.DEFAULT;
        private long firstBuffer;
        private long endBuffer = Long.MAX_VALUE;
        private EtlBufferFilter bufferFilter = EtlBufferFilter.ALL;
        private LearnedContext learned;
        private boolean tallyUndecoded;

        private Builder() {
        }

        /** Decodes with the instrumentation manifest {@code file} (e.g. a {@code .man}). */
        public Builder manifest(Path file) {
            manifests.add(new Manifest(file.toString(), Objects.requireNonNull(file, "file"), null, null, null));
            return this;
        }

        /** Decodes with the manifest whose XML is {@code xml} (copied). */
        public Builder manifest(byte[] xml) {
            manifests.add(new Manifest("(" + xml.length + " bytes)", null, xml.clone(), null, null));
            return this;
        }

        /** Decodes with the manifest {@code resource} of {@code loader}'s class path (read when the files open). */
        public Builder manifestResource(ClassLoader loader, String resource) {
            Objects.requireNonNull(loader, "loader");
            String r = resource.startsWith("/") ? resource.substring(1) : resource;
            manifests.add(new Manifest("classpath:" + r, null, null, loader, r));
            return this;
        }

        /**
         * Only events of these providers (GUIDs, optionally in braces, or names; repeatable).
         *
         * @throws IllegalArgumentException when one is blank (said here, before a file is opened, so that a command
         *                                  line can report it as a usage error)
         */
        public Builder providers(List<String> namesOrGuids) {
            namesOrGuids.forEach(p -> Objects.requireNonNull(p, "provider"));
            new ProviderSelection(namesOrGuids); // validates: a blank name selects nothing
            providers.addAll(namesOrGuids);
            return this;
        }

        /** Only events at or after {@code from} and before {@code to} (either may be null: open). */
        public Builder timeRange(Instant from, Instant to) {
            this.fromFileTime = from == null ? Long.MIN_VALUE : TimestampConverter.toFileTime(from);
            this.toFileTime = to == null ? Long.MAX_VALUE : TimestampConverter.toFileTime(to);
            return this;
        }

        /** How the trace context is learned (default {@link TraceContext#TWO_PASSES}). */
        public Builder traceContext(TraceContext mode) {
            this.context = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Whether one event object is reused, valid until the next event (default true, as JFR's
         * {@code EventStream.setReuse}); false: every event is a copy the caller may keep.
         */
        public Builder reuse(boolean reuse) {
            this.reuse = reuse;
            return this;
        }

        /**
         * Tells {@code listener} each problem the reader steps over (a truncated buffer, a malformed record: the
         * {@link org.etw4j.consumer.etl.EtlWarning} with its file offset and buffer), on the reading thread, as it
         * meets it; {@link TraceFile#warnings()} counts them either way.
         */
        public Builder warnings(EtlWarningListener listener) {
            this.readOptions = EtlReadOptions.lenient(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Reads only the records of buffers {@code [firstBuffer, endBuffer)} of one file that {@code filter} takes,
         * in time order (a split: {@link org.etw4j.consumer.etl.EtlFile#cursor(org.etw4j.consumer.etl.EtlOrder,
         * long, long, EtlBufferFilter)} says how ranges that together cover the file deliver every record once).
         * A reader with a range reads exactly one file. The trace context still covers the whole file: with
         * {@link TraceContext#TWO_PASSES} the first pass reads every buffer, so a split decodes and attributes its
         * events as a whole-file read does (or give the pass's result with {@link #learnedContext}).
         *
         * @throws IllegalArgumentException when {@code firstBuffer < 0} or {@code endBuffer < firstBuffer}
         */
        public Builder buffers(long firstBuffer, long endBuffer, EtlBufferFilter filter) {
            if (firstBuffer < 0 || endBuffer < firstBuffer) {
                throw new IllegalArgumentException("buffers [" + firstBuffer + ", " + endBuffer + ")");
            }
            this.firstBuffer = firstBuffer;
            this.endBuffer = endBuffer;
            this.bufferFilter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * Reads with the context and schemas {@code learned} holds (a first pass made once, e.g. by one of several
         * readers of the same file) instead of making a first pass: the reader takes its own presenter of the
         * context and its own copy of the schemas, so what it harvests later reaches no other reader. The
         * manifests the context was learned with are the reader's; {@link #manifest} calls are not repeated.
         */
        public Builder learnedContext(LearnedContext learned) {
            this.learned = Objects.requireNonNull(learned, "learned");
            return this;
        }

        /**
         * Strict reading: the first malformed buffer or record ends the read with an
         * {@link org.etw4j.consumer.etl.EtlFormatException} instead of being stepped over and counted (the
         * opposite of {@link #warnings}; the last call wins).
         */
        public Builder strict() {
            this.readOptions = EtlReadOptions.strictMode();
            return this;
        }

        /**
         * Tallies, per event kind, the delivered events no schema describes, as {@code etw summary} lists them
         * ({@link TraceFile#undecoded()}): each is decoded once it is read, except that a kind seen decoded with
         * a field is not decoded again.
         */
        public Builder tallyUndecoded(boolean on) {
            this.tallyUndecoded = on;
            return this;
        }

        /** The settings. */
        public ReadSettings build() {
            return new ReadSettings(this);
        }
    }
}
