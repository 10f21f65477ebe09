package org.etw4j.consumer.internal;

import org.etw4j.RawEventRecord;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.TdhMetadata;
import org.etw4j.format.EventHeaderLayout;

/**
 * The kinds of event known to decode, for the reader's tally of undecoded events ({@code TraceFile.undecoded()},
 * which {@code etw summary} lists): a record of a kind seen
 * decoded with at least one field is not decoded again (issue 20, target 4: the count then costs a header read and a
 * table look-up per record, not a decoding pass). A kind is the provider (event class), id, opcode, version, header
 * flags and event property of the record: what the decoder's choice of schema depends on.
 *
 * <p>Why the answer holds for every record of a kind once one decoded with a field: schemas are only ever added
 * while a file is read (a harvested manifest never removes a registered one), and none of the decoder's sources
 * chooses a schema by the payload, except two that are never remembered here ({@link #cacheable}): TraceLogging
 * events (each carries its own schema, and one that does not parse leaves the event undecoded) and the records
 * that carry schemas themselves (EventSource manifest envelopes, id 0xFFFE; KernelTraceControl MetaData), which must
 * reach the decoder for it to harvest them. A record whose decoding gave no field or nothing at all is never
 * remembered either: its kind may decode later, once the trace has carried its schema.
 *
 * <p>Not thread-safe; one per pass. Open addressing over three longs per kind, no allocation per look-up.
 */
public final class DecodedKinds {
    /** The KernelTraceControl MetaData event class ({@code TdhMetadata.METADATA_CLASS}): its records carry schemas. */
    private static final long METADATA_MSB = TdhMetadata.METADATA_CLASS.mostSignificantBits();
    private static final long METADATA_LSB = TdhMetadata.METADATA_CLASS.leastSignificantBits();
    /** The id of EventSource's manifest envelope events ({@code ManifestRegistry.MANIFEST_EVENT_ID}). */
    private static final int MANIFEST_EVENT_ID = ManifestRegistry.MANIFEST_EVENT_ID;

    private long[] keys = new long[3 * 64];
    private boolean[] used = new boolean[64];
    private int size;

    /** Whether a record of {@code r}'s kind was {@link #add}ed. */
    public boolean contains(RawEventRecord r) {
        long a = r.providerIdMsb();
        long b = r.providerIdLsb();
        long c = rest(r);
        int mask = used.length - 1;
        for (int i = slot(a, b, c) & mask; used[i]; i = (i + 1) & mask) {
            if (keys[3 * i] == a && keys[3 * i + 1] == b && keys[3 * i + 2] == c) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the decoder's answer for {@code r} may stand for its kind: false for TraceLogging records and for
     * records that carry schemas (see the class comment).
     */
    public static boolean cacheable(RawEventRecord r) {
        if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) != 0) {
            return r.providerIdMsb() != METADATA_MSB || r.providerIdLsb() != METADATA_LSB;
        }
        return r.id() != MANIFEST_EVENT_ID
                && (r.extendedDataCount() == 0 || r.extendedDataOfType(EventHeaderLayout.EXT_EVENT_SCHEMA_TL) == null);
    }

    /** Remembers {@code r}'s kind as one that decodes (the caller checked {@link #cacheable} and the result). */
    public void add(RawEventRecord r) {
        if (contains(r)) {
            return;
        }
        if (2 * (size + 1) > used.length) {
            grow();
        }
        put(r.providerIdMsb(), r.providerIdLsb(), rest(r));
    }

    /** Kinds remembered. */
    public int size() {
        return size;
    }

    private void put(long a, long b, long c) {
        int mask = used.length - 1;
        int i = slot(a, b, c) & mask;
        while (used[i]) {
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[3 * i] = a;
        keys[3 * i + 1] = b;
        keys[3 * i + 2] = c;
        size++;
    }

    private void grow() {
        long[] oldKeys = keys;
        boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        used = new boolean[oldUsed.length * 2];
        size = 0;
        for (int i = 0; i < oldUsed.length; i++) {
            if (oldUsed[i]) {
                put(oldKeys[3 * i], oldKeys[3 * i + 1], oldKeys[3 * i + 2]);
            }
        }
    }

    /** Id, opcode, version, header flags and event property in one long (16 + 8 + 8 + 16 + 16 bits). */
    private static long rest(RawEventRecord r) {
        return (r.id() & 0xFFFFL) << 48 | (r.opcode() & 0xFFL) << 40 | (r.version() & 0xFFL) << 32
                | (r.flags() & 0xFFFFL) << 16 | (r.eventProperty() & 0xFFFFL);
    }

    private static int slot(long a, long b, long c) {
        long h = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL ^ c * 0x165667B19E3779F9L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }
}
