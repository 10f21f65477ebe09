package org.etw4j.consumer.internal.decode;

import org.etw4j.consumer.internal.schema.SchemaProvider;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * Last in the chain, for live records only: the schema the consuming machine's TDH has
 * ({@link org.etw4j.RawEventRecord#eventInformation()}, cached per event kind by {@link LiveTdhSchemas}).
 * When TDH was asked and had no schema, its reason joins the notes of the undecoded event.
 * Thread-safe (the cache is).
 */
final class LiveTdh implements SchemaProvider {

    final LiveTdhSchemas schemas = new LiveTdhSchemas();

    @Override
    public Reads reads() {
        return Reads.BOTH;
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        LiveTdhSchemas.Answer live = schemas.find(q.record(), q.provider());
        if (live == null) {
            return false;
        }
        if (live.schema() != null) {
            return q.found(live.schema(), live.notes());
        }
        q.addMissNotes(live.notes());
        return false;
    }
}
