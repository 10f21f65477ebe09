package org.etw4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.consumer.EventStream;
import org.etw4j.consumer.ReadSettings;
import org.etw4j.tracelogging.ProviderIds;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * The events of {@code etw demo}: the provider, its manifest-style descriptors (described by the bundled
 * manifest {@code etw4j-demo.man}) and its TraceLogging events (self-describing).
 *
 * <p>Constants only; thread-safe. The descriptors' id, level, task and keyword must agree with the manifest;
 * {@link #loadManifest()} checks the provider GUID, and the demo's "all events decoded" check catches the rest.
 */
final class DemoEvents {
    /** The demo provider's name; its GUID is derived from it. */
    static final String PROVIDER_NAME = "etw4j-Demo";
    /** The manifest resource, next to this class. */
    static final String MANIFEST = "etw4j-demo.man";
    /** The provider GUID ({@link ProviderIds#fromName}). */
    static final Guid PROVIDER_ID = ProviderIds.fromName(PROVIDER_NAME);

    static final long KEYWORD_REQUESTS = 0x1;
    static final long KEYWORD_CACHE = 0x2;

    static final EventDescriptor REQUEST_RECEIVED = EventDescriptor.builder(1)
            .level(Level.INFORMATIONAL).task(1).keyword(KEYWORD_REQUESTS).build();
    static final EventDescriptor REQUEST_DETAIL = EventDescriptor.builder(2)
            .level(Level.VERBOSE).task(2).keyword(KEYWORD_REQUESTS).build();
    static final EventDescriptor CACHE_MISS = EventDescriptor.builder(3)
            .level(Level.INFORMATIONAL).task(3).keyword(KEYWORD_CACHE).build();
    /** Keyword 0: passes every keyword mask, except in a session with IGNORE_KEYWORD_0. */
    static final EventDescriptor SLOW_REQUEST = EventDescriptor.builder(4)
            .level(Level.WARNING).task(4).keyword(0).build();
    /** Written by the provider's enable listener in answer to CAPTURE_STATE. */
    static final EventDescriptor PROVIDER_STATE = EventDescriptor.builder(20)
            .level(Level.INFORMATIONAL).task(20).keyword(KEYWORD_REQUESTS).build();

    static final TraceLoggingEvent TICK = TraceLoggingEvent.builder("Tick")
            .level(Level.INFORMATIONAL).keyword(KEYWORD_REQUESTS)
            .int32Field("Worker").stringField("Name").doubleField("Value")
            .build();
    static final TraceLoggingEvent SAMPLE = TraceLoggingEvent.builder("Sample")
            .level(Level.VERBOSE).keyword(KEYWORD_CACHE)
            .int32Field("Worker").int32Field("Round").doubleField("Ratio")
            .build();
    /** The activity around each worker's rounds (start and stop carry no fields). */
    static final TraceLoggingEvent JOB = TraceLoggingEvent.builder("Job")
            .level(Level.INFORMATIONAL).keyword(KEYWORD_REQUESTS)
            .build();

    private DemoEvents() {
    }

    /** Registers the bundled manifest on a stream. */
    static void addManifest(EventStream stream) throws IOException {
        stream.addManifest(manifestBytes());
    }

    /** The bundled manifest's XML (a resource of this module, which only it can read). */
    static byte[] manifestBytes() throws IOException {
        try (InputStream in = DemoEvents.class.getResourceAsStream(MANIFEST)) {
            if (in == null) {
                throw new IOException(MANIFEST + " is missing from the class path");
            }
            return in.readAllBytes();
        }
    }

    /** The bundled manifest's provider, as the reader sees it (its GUID checked against the name's). */
    static ReadSettings.ManifestProvider loadManifest() throws IOException {
        // Through the reader's settings: the manifest cache, which every dump registering it fills, spares the XML parser.
        List<ReadSettings.ManifestProvider> ps = ReadSettings.builder().manifest(manifestBytes()).build()
                .manifestProviders();
        ReadSettings.ManifestProvider m = ps.get(0);
        if (!m.guid().equals(PROVIDER_ID)) {
            throw new IllegalStateException("etw4j-demo.man declares " + m.guid() + " but the name "
                    + PROVIDER_NAME + " gives " + PROVIDER_ID);
        }
        return m;
    }
}
