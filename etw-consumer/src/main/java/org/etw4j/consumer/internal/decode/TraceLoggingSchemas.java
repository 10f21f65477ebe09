package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.util.List;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.schema.SchemaProvider;
import org.etw4j.consumer.internal.schema.SchemaQuery;
import org.etw4j.format.EventHeaderLayout;

/**
 * TraceLogging events (those with an {@code EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL} item) in the chain: decoded by
 * the decoder's {@link EventDecoder.TraceLoggingDecoder} from the schema they carry, always as values. An event
 * it cannot decode (no decoder installed, or the decoder failed) stays undecoded with a note saying why.
 * Thread-safe when the installed decoder is (the built-in one is).
 */
final class TraceLoggingSchemas implements SchemaProvider {

    private final EventDecoder.TraceLoggingDecoder decoder;
    private final ProviderTexts texts;

    /** {@code decoder} may be {@code null}: TraceLogging events are then left undecoded. */
    TraceLoggingSchemas(EventDecoder.TraceLoggingDecoder decoder, ProviderTexts texts) {
        this.decoder = decoder;
        this.texts = texts;
    }

    @Override
    public Reads reads() {
        return Reads.EVENT_HEADERS;
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        RawEventRecord r = q.record();
        ByteBuffer schema = r.extendedDataOfType(EventHeaderLayout.EXT_EVENT_SCHEMA_TL);
        if (schema == null) {
            return false;
        }
        if (decoder != null) {
            DecodedEvent e;
            try {
                e = decoder.decode(r, schema, r.extendedDataOfType(EventHeaderLayout.EXT_PROV_TRAITS));
            } catch (RuntimeException ex) {
                return q.decoded(EventDecoder.undecoded(r, q.provider(), texts.text(q.provider()), q.userData(),
                        List.of("TraceLogging decoder failed: " + ex)));
            }
            if (e != null) {
                return q.decoded(e);
            }
        }
        return q.decoded(EventDecoder.undecoded(r, q.provider(), texts.text(q.provider()), q.userData(),
                List.of("TraceLogging event: no TraceLogging decoder installed")));
    }
}
