package org.etw4j.provider;

import java.util.Arrays;

/**
 * A copy of one {@code EVENT_FILTER_DESCRIPTOR} handed to a provider's enable callback.
 *
 * <p>Immutable; thread-safe. The backend copies the native filter data during the callback (MS Learn, PENABLECALLBACK callback function: it is
 * valid only there); {@link #data()} returns a fresh copy each time.
 *
 * @param type {@code EVENT_FILTER_TYPE_*}
 * @param data the filter bytes
 */
public record FilterData(int type, byte[] data) {
    public FilterData {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** Size of the filter data in bytes. */
    public int size() {
        return data.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FilterData f && f.type == type && Arrays.equals(f.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "FilterData[type=0x" + Integer.toHexString(type) + ", " + data.length + " bytes]";
    }
}
