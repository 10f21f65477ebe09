package org.etw4j.consumer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.consumer.decode.EventDecoder;
import org.etw4j.tracelogging.TraceLoggingDecodeException;
import org.etw4j.tracelogging.TraceLoggingSchema;
import org.etw4j.tracelogging.TraceLoggingSchemaCache;

/**
 * What a stream's records decode with: the decoder facade of {@code org.etw4j.consumer.decode} (manifests
 * registered on the stream, in-band EventSource manifests, built-in kernel MOF layouts, TraceLogging) and a
 * TraceLogging schema cache keyed by the metadata bytes, for the cheap name lookups that routing needs.
 *
 * <p>Thread-safe (both parts are); shared by a stream's records and their copies.
 */
final class RecordDecoding {
    final EventDecoder decoder = new EventDecoder();
    private final TraceLoggingSchemaCache schemas = new TraceLoggingSchemaCache();

    /** The parsed TraceLogging schema of a metadata item, or null when it is malformed. */
    TraceLoggingSchema schema(ByteBuffer metadataItem) {
        try {
            return schemas.get(metadataItem.duplicate().order(ByteOrder.LITTLE_ENDIAN));
        } catch (TraceLoggingDecodeException e) {
            return null;
        }
    }
}
