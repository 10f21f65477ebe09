package org.etw4j.tracelogging;

import java.nio.ByteBuffer;

/**
 * Parsed {@link TraceLoggingSchema}s keyed by their metadata bytes, for trace readers that see the same metadata
 * blob on every event of a kind.
 *
 * <p>Thread-safe (one lock; a lookup is a hash over the blob and one comparison). A hit allocates nothing: the
 * blob is hashed and compared in place, never copied. Keys are the whole metadata bytes, not (provider, id):
 * TraceLogging events usually share id 0, so two different definitions with the same id get different entries.
 * Holds at most {@code maxEntries} schemas; when full it empties itself and starts over (a reader's working set
 * is small; a bounded cache keeps a hostile trace from exhausting memory).
 */
public final class TraceLoggingSchemaCache {

    private static final class Entry {
        final TraceLoggingSchema schema;
        final Entry next;

        Entry(TraceLoggingSchema schema, Entry next) {
            this.schema = schema;
            this.next = next;
        }
    }

    private final int maxEntries;
    private final Entry[] table;
    private int size;

    /** A cache of at most 4096 schemas. */
    public TraceLoggingSchemaCache() {
        this(4096);
    }

    /** A cache of at most {@code maxEntries} (>= 1) schemas. */
    public TraceLoggingSchemaCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.table = new Entry[Integer.highestOneBit(Math.max(16, maxEntries) * 2 - 1)];
    }

    /**
     * The schema for the metadata blob at the buffer's position (up to its limit; bytes after the blob's own Size
     * field, such as extended-item padding, are not part of the key), parsed on first sight. The position is not
     * changed.
     *
     * @throws TraceLoggingDecodeException if the blob is malformed (nothing is cached then)
     */
    public TraceLoggingSchema get(ByteBuffer blob) {
        int p = blob.position();
        int rem = blob.remaining();
        int size = rem >= 2 ? (blob.get(p) & 0xFF) | (blob.get(p + 1) & 0xFF) << 8 : -1;
        if (size < 4 || size > rem) {
            return TraceLoggingSchema.parse(blob); // malformed: parse() throws with the details
        }
        // Hash and compare over an array: in place for heap buffers, else one bulk copy (per-byte reads of a
        // read-only view of mapped memory cost more than the copy).
        byte[] a;
        int off;
        if (blob.hasArray()) {
            a = blob.array();
            off = blob.arrayOffset() + p;
        } else {
            a = new byte[size];
            blob.get(p, a);
            off = 0;
        }
        int hash = TraceLoggingSchema.hashOf(a, off, size);
        synchronized (this) {
            for (Entry e = table[index(hash)]; e != null; e = e.next) {
                if (e.schema.hashCode() == hash && e.schema.matches(a, off, size)) {
                    return e.schema;
                }
            }
        }
        return put(hash, TraceLoggingSchema.parse(a, off, size));
    }

    /** The schema for {@code len} bytes of metadata at {@code blob[off]}. */
    public TraceLoggingSchema get(byte[] blob, int off, int len) {
        return get(ByteBuffer.wrap(blob, off, len));
    }

    /** Number of cached schemas. */
    public synchronized int size() {
        return size;
    }

    /** Forgets every schema. */
    public synchronized void clear() {
        java.util.Arrays.fill(table, null);
        size = 0;
    }

    private synchronized TraceLoggingSchema put(int hash, TraceLoggingSchema parsed) {
        int i = index(hash);
        for (Entry e = table[i]; e != null; e = e.next) {
            if (e.schema.equals(parsed)) {
                return e.schema; // another thread parsed it meanwhile
            }
        }
        if (size >= maxEntries) {
            clear();
        }
        table[i] = new Entry(parsed, table[i]);
        size++;
        return parsed;
    }

    private int index(int hash) {
        return (hash ^ (hash >>> 16)) & (table.length - 1);
    }
}
