package org.etw4j.consumer.output;

import org.etw4j.Guid;
import org.etw4j.consumer.internal.Utf8Buffer;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.RawEventRecord;

/**
 * The encoded bytes of the part of an event's line that depends only on what it is, not on which one it is: the
 * provider's id and name, the event's name, id, version, opcode and its name, level, task and keyword (in JSON
 * Lines from {@code "provider"} to the event object's end, in CSV from {@code provider_id} to {@code keyword}).
 * Events of one kind repeat these values line after line; written once per kind and copied, they cost one
 * comparison of the values instead of some 20 pieces encoded one by one.
 *
 * <p>Direct-mapped by the values' hash, {@value #SLOTS} slots; an entry is used only when every value equals the
 * event's (names by content, identity first), so a collision or a changed value only costs one more encoding.
 * Not thread-safe; one per formatter.
 */
final class HeaderCache {
    /** Writes the part for {@code r} and {@code e} into a buffer (the formatter's own rule). */
    @FunctionalInterface
    interface Encoder {
        void write(Utf8Buffer out, RawEventRecord r, EventView e);
    }

    private static final int SLOTS = 512;

    /** Made on the first get, as {@link EncodedCache}'s tables. */
    private Entry[] slots;
    private Utf8Buffer scratch;
    private final Encoder encoder;

    HeaderCache(Encoder encoder) {
        this.encoder = encoder;
    }

    /** The bytes {@link #encoder} writes for the event ({@code e}, header {@code r}). */
    byte[] get(RawEventRecord r, EventView e) {
        if (slots == null) {
            slots = new Entry[SLOTS];
            scratch = new Utf8Buffer(256);
        }
        Guid provider = e.providerId();
        long msb = provider.mostSignificantBits();
        long lsb = provider.leastSignificantBits();
        String providerName = e.providerName();
        String eventName = e.eventName();
        String opcodeName = e.opcodeName();
        int id = r.id();
        int version = r.version();
        int opcode = r.opcode();
        int level = r.level();
        int task = r.task();
        long keyword = r.keyword();
        int h = Long.hashCode(msb ^ lsb) * 31 + hash(eventName);
        h = h * 31 + id;
        h = h * 31 + opcode;
        h = h * 31 + task;
        int slot = (h ^ h >>> 16) & (SLOTS - 1);
        Entry x = slots[slot];
        if (x != null && x.msb == msb && x.lsb == lsb && x.id == id && x.version == version && x.opcode == opcode
                && x.level == level && x.task == task && x.keyword == keyword && same(x.eventName, eventName)
                && same(x.providerName, providerName) && same(x.opcodeName, opcodeName)) {
            return x.bytes;
        }
        encoder.write(scratch.clear(), r, e);
        x = new Entry(msb, lsb, providerName, eventName, opcodeName, id, version, opcode, level, task, keyword,
                java.util.Arrays.copyOf(scratch.array(), scratch.size()));
        slots[slot] = x;
        return x.bytes;
    }

    private static int hash(String s) {
        return s == null ? 0 : s.hashCode();
    }

    private static boolean same(String a, String b) {
        return a == b || a != null && a.equals(b);
    }

    private record Entry(long msb, long lsb, String providerName, String eventName, String opcodeName, int id,
                         int version, int opcode, int level, int task, long keyword, byte[] bytes) {
    }
}
