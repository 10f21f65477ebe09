package org.etw4j.nativebindings.windows;

/**
 * A set of event kinds, each named by its provider id and a packed {@code id | version << 16 | opcode << 24}
 * descriptor key: open addressing over three parallel arrays, so that a lookup allocates nothing.
 *
 * <p>Not thread-safe (one owner thread); reusable; nothing to close. Grows by doubling; holds at most
 * {@link #MAX_SIZE} kinds, after which {@link #add} ignores new ones (a bound against traces with endless
 * distinct descriptors: forgetting only costs a repeated lookup).
 */
final class EventKeySet {
    static final int MAX_SIZE = 1 << 16;

    private long[] msbs = new long[64];
    private long[] lsbs = new long[64];
    private int[] keys = new int[64];
    private boolean[] used = new boolean[64];
    private int size;

    /** The descriptor key of an event kind. */
    static int key(int id, int version, int opcode) {
        return (id & 0xFFFF) | (version & 0xFF) << 16 | (opcode & 0xFF) << 24;
    }

    boolean contains(long msb, long lsb, int key) {
        int mask = keys.length - 1;
        for (int i = slot(msb, lsb, key, mask); used[i]; i = (i + 1) & mask) {
            if (keys[i] == key && msbs[i] == msb && lsbs[i] == lsb) {
                return true;
            }
        }
        return false;
    }

    /** Adds a kind; false when it was there already or the set is full. */
    boolean add(long msb, long lsb, int key) {
        if (contains(msb, lsb, key) || size >= MAX_SIZE) {
            return false;
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        insert(msb, lsb, key);
        size++;
        return true;
    }

    int size() {
        return size;
    }

    private void insert(long msb, long lsb, int key) {
        int mask = keys.length - 1;
        int i = slot(msb, lsb, key, mask);
        while (used[i]) {
            i = (i + 1) & mask;
        }
        used[i] = true;
        msbs[i] = msb;
        lsbs[i] = lsb;
        keys[i] = key;
    }

    private void grow() {
        long[] oldMsbs = msbs;
        long[] oldLsbs = lsbs;
        int[] oldKeys = keys;
        boolean[] oldUsed = used;
        int n = oldKeys.length * 2;
        msbs = new long[n];
        lsbs = new long[n];
        keys = new int[n];
        used = new boolean[n];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                insert(oldMsbs[i], oldLsbs[i], oldKeys[i]);
            }
        }
    }

    private static int slot(long msb, long lsb, int key, int mask) {
        long h = msb * 0x9E3779B97F4A7C15L ^ lsb * 0xC2B2AE3D27D4EB4FL ^ key * 0x165667B19E3779F9L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47)) & mask;
    }
}
