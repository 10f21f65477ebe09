package org.etw4j.consumer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.etw4j.TimestampConverter;
import org.etw4j.consumer.decode.ManifestCache;
import org.etw4j.consumer.decode.ManifestRegistry;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlWarningListener;

/**
 * How {@link TraceFile} and {@link EventStream#openFiles(ReadSettings, Path...)} read .etl files: the manifests to
 * decode with (files, class-path resources or bytes), which providers' events to deliver, a time range, how the
 * trace's context (processes, threads, volume mapping) is learned, and whether the event object is reused.
 *
 * <p>Immutable and thread-safe; made with {@link #builder()}. {@link #DEFAULT}: no manifests beyond what the trace
 * carries, every provider, the whole trace, two passes, a reused event.
 */
public final class ReadSettings {
    /** Every provider, the whole trace, two passes, a reused event. */
    public static final ReadSettings DEFAULT = builder().build();

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

    private ReadSettings(Builder b) {
        this.manifests = List.copyOf(b.manifests);
        this.providers = List.copyOf(b.providers);
        this.fromFileTime = b.fromFileTime;
        this.toFileTime = b.toFileTime;
        this.context = b.context;
        this.reuse = b.reuse;
        this.readOptions = b.readOptions;
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

    /** How the trace context is learned. */
    public TraceContext traceContext() {
        return context;
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
        for (Manifest m : manifests) {
            try {
                if (m.file() != null) {
                    registry.register(m.file());
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
                registerXml(registry, xml);
            } catch (IOException | RuntimeException e) {
                throw new ReadSetupException("manifest " + m.name(), e);
            }
        }
    }

    /** Registers the providers of the manifest {@code xml}, through the manifest cache (spares the XML parser). */
    static void registerXml(ManifestRegistry registry, byte[] xml) throws IOException {
        ManifestCache.shared().load(xml, SchemaSource.MANIFEST).forEach(registry::register);
    }

    @Override
    public String toString() {
        return "ReadSettings[manifests=" + manifests.stream().map(Manifest::name).toList() + ", providers=" + providers
                + ", context=" + context + ", reuse=" + reuse + "]";
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

        /** Only events of these providers (GUIDs, optionally in braces, or names; repeatable). */
        public Builder providers(List<String> namesOrGuids) {
            namesOrGuids.forEach(p -> providers.add(Objects.requireNonNull(p, "provider")));
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

        /** The settings. */
        public ReadSettings build() {
            return new ReadSettings(this);
        }
    }
}
