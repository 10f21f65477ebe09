package org.etw4j.consumer.etl;

/**
 * Record counts per (provider GUID, header kind), keyed by the GUID's two longs so counting allocates
 * nothing per record; plus the provider's name once one is known.
 *
 * <p>Not thread-safe; used by one summary pass. Open addressing with linear probing, grown at half load.
 */
final class ProviderTally {
    private static final int KINDS = HeaderKind.count();

    private long[] msb = new long[64];
    private long[] lsb = new long[64];
    private boolean[] used = new boolean[64];
    private long[] counts = new long[64 * KINDS];
    private String[] names = new String[64];
    private int size;

    /** Counts one record; returns the provider's slot (valid until the next {@code add}). */
    int add(long m, long l, int kindOrdinal) {
        int slot = find(m, l);
        if (!used[slot]) {
            if (2 * (size + 1) > used.length) {
                grow();
                slot = find(m, l);
            }
            used[slot] = true;
            msb[slot] = m;
            lsb[slot] = l;
            size++;
        }
        counts[slot * KINDS + kindOrdinal]++;
        return slot;
    }

    String name(int slot) {
        return names[slot];
    }

    void name(int slot, String name) {
        names[slot] = name;
    }

    int capacity() {
        return used.length;
    }

    boolean used(int slot) {
        return used[slot];
    }

    long msb(int slot) {
        return msb[slot];
    }

    long lsb(int slot) {
        return lsb[slot];
    }

    long count(int slot, int kindOrdinal) {
        return counts[slot * KINDS + kindOrdinal];
    }

    private int find(long m, long l) {
        int mask = used.length - 1;
        long h = (m * 0x9E37_79B9_7F4A_7C15L) ^ (l * 0xC2B2_AE3D_27D4_EB4FL);
        int slot = (int) (h ^ (h >>> 32)) & mask;
        while (used[slot] && (msb[slot] != m || lsb[slot] != l)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oldMsb = msb;
        long[] oldLsb = lsb;
        boolean[] oldUsed = used;
        long[] oldCounts = counts;
        String[] oldNames = names;
        int capacity = oldUsed.length * 2;
        msb = new long[capacity];
        lsb = new long[capacity];
        used = new boolean[capacity];
        counts = new long[capacity * KINDS];
        names = new String[capacity];
        for (int i = 0; i < oldUsed.length; i++) {
            if (oldUsed[i]) {
                int slot = find(oldMsb[i], oldLsb[i]);
                used[slot] = true;
                msb[slot] = oldMsb[i];
                lsb[slot] = oldLsb[i];
                names[slot] = oldNames[i];
                System.arraycopy(oldCounts, i * KINDS, counts, slot * KINDS, KINDS);
            }
        }
    }
}
