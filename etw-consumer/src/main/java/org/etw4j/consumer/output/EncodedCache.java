package org.etw4j.consumer.output;

import java.util.IdentityHashMap;
import java.util.function.BiConsumer;
import org.etw4j.consumer.internal.Utf8Buffer;

/**
 * The encoded bytes of values the formatter writes again and again (provider, event and field names of one
 * schema, a process's JSON object), made once per value object: keyed by identity, so a schema's strings and the
 * trace context's process records hit, and an equal but new object only costs one more encoding. Bounded: past
 * {@value #LIMIT} entries it starts over.
 *
 * <p>Not thread-safe; one per formatter.
 */
final class EncodedCache<K> {
    private static final int LIMIT = 4096;
    /** Slots of the direct-mapped front (a power of two). */
    private static final int FRONT = 256;

    // Made on the first get: a formatter has caches for every form, and the one-line forms (EventRecord.toString,
    // toJson) make a formatter per call and use few of them.
    private IdentityHashMap<K, byte[]> map;
    /**
     * A direct-mapped front of the map by identity hash: one load and one compare for the names of the schemas in
     * use (the map's probing was 4 % of {@code etw dump}'s CPU samples, PERFORMANCE.md).
     */
    private Object[] frontKeys;
    private byte[][] frontBytes;
    private Utf8Buffer scratch;
    private final BiConsumer<Utf8Buffer, K> encoder;

    /** A cache encoding a key by writing it into a buffer with {@code encoder}. */
    EncodedCache(BiConsumer<Utf8Buffer, K> encoder) {
        this.encoder = encoder;
    }

    /** The bytes {@code encoder} writes for {@code key}. */
    byte[] get(K key) {
        if (map == null) {
            map = new IdentityHashMap<>();
            frontKeys = new Object[FRONT];
            frontBytes = new byte[FRONT][];
            scratch = new Utf8Buffer(256);
        }
        int slot = System.identityHashCode(key) & (FRONT - 1);
        if (frontKeys[slot] == key && key != null) {
            return frontBytes[slot];
        }
        byte[] b = map.get(key);
        if (b == null) {
            if (map.size() >= LIMIT) {
                map.clear();
                java.util.Arrays.fill(frontKeys, null);
                java.util.Arrays.fill(frontBytes, null);
            }
            encoder.accept(scratch.clear(), key);
            b = java.util.Arrays.copyOf(scratch.array(), scratch.size());
            map.put(key, b);
        }
        frontKeys[slot] = key;
        frontBytes[slot] = b;
        return b;
    }

    /** A cache of JSON strings, {@code "text"}. */
    static EncodedCache<String> jsonStrings() {
        return new EncodedCache<>(Utf8Buffer::jsonString);
    }

    /** A cache of JSON member names, {@code "name":}. */
    static EncodedCache<String> jsonNames() {
        return new EncodedCache<>((b, s) -> b.jsonString(s).ascii(':'));
    }

    /** A cache of plain UTF-8 texts. */
    static EncodedCache<String> texts() {
        return new EncodedCache<>(Utf8Buffer::append);
    }
}
