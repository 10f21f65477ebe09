package org.etw4j.consumer;

/**
 * One extended data item of an event ({@code EVENT_HEADER_EXTENDED_DATA_ITEM}), copied.
 *
 * <p>Immutable value; thread-safe (the array is copied in and out).
 *
 * @param type {@code EVENT_HEADER_EXT_TYPE_*} ({@link org.etw4j.format.EventHeaderLayout})
 * @param data the item's data
 */
public record ExtendedItem(int type, byte[] data) {

    public ExtendedItem {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExtendedItem e && e.type == type && java.util.Arrays.equals(e.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * type + java.util.Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "ExtendedItem[type=0x" + Integer.toHexString(type) + ", " + data.length + " bytes]";
    }
}
