package org.etw4j.spi;

import java.nio.ByteBuffer;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;

/**
 * One event as a consumer receives it ({@code EVENT_RECORD}): header fields, extended data items and user data.
 *
 * <p>A view, not a value: valid only during the callback that receives it (the backend reuses it and the memory
 * under it). Not thread-safe. The getters allocate nothing unless they return objects ({@link #providerId()},
 * {@link #activityId()}, {@link #descriptor()}); hot paths use the primitive getters.
 */
public interface RawEventRecord {

    /** {@code EVENT_HEADER_FLAG_*}. */
    int flags();

    /** {@code EVENT_HEADER_PROPERTY_*}. */
    int eventProperty();

    int threadId();

    int processId();

    /**
     * The timestamp: a FILETIME (100 ns ticks since 1601-01-01 UTC) for real-time delivery, as ProcessTrace
     * gives it; raw clock ticks where {@link #isRawTimestamp()} says so.
     */
    long timestamp();

    /**
     * The timestamp as the session's clock stored it (QPC ticks, FILETIME or CPU cycles); equal to
     * {@link #timestamp()} when {@link #isRawTimestamp()}. Backends that only know FILETIME return that.
     */
    default long rawTimestamp() {
        return timestamp();
    }

    /** Whether {@link #timestamp()} is in the session's raw clock rather than FILETIME. */
    default boolean isRawTimestamp() {
        return false;
    }

    /** High half of the provider id (canonical order), without allocating. */
    long providerIdMsb();

    /** Low half of the provider id. */
    long providerIdLsb();

    /** The provider id. */
    default Guid providerId() {
        return new Guid(providerIdMsb(), providerIdLsb());
    }

    int id();

    int version();

    int channel();

    int level();

    int opcode();

    int task();

    long keyword();

    /** The descriptor as a value. */
    default EventDescriptor descriptor() {
        return new EventDescriptor(id(), version(), channel(), level(), opcode(), task(), keyword());
    }

    int kernelTime();

    int userTime();

    /** High half of the activity id. */
    long activityIdMsb();

    /** Low half of the activity id. */
    long activityIdLsb();

    /** The activity id (GUID_NULL when none). */
    default Guid activityId() {
        return new Guid(activityIdMsb(), activityIdLsb());
    }

    /** The processor that logged the event. */
    int processorIndex();

    /** 4 or 8: the pointer size of the process that logged the event. */
    int pointerSize();

    /** Number of extended data items. */
    int extendedDataCount();

    /** {@code EVENT_HEADER_EXT_TYPE_*} of item {@code index}. */
    int extendedDataType(int index);

    /** Data of item {@code index}: a read-only little-endian slice, valid only during the callback. */
    ByteBuffer extendedData(int index);

    /** The user data: a read-only little-endian slice, valid only during the callback. */
    ByteBuffer userData();

    /** Length of the user data in bytes. */
    int userDataLength();

    /** An owned copy of this record, valid after the callback (a view is not). */
    default RawEventRecord copy() {
        return RecordSnapshot.of(this);
    }

    /** The data of the first extended item of {@code type}, or null. */
    default ByteBuffer extendedDataOfType(int type) {
        for (int i = 0, n = extendedDataCount(); i < n; i++) {
            if (extendedDataType(i) == type) {
                return extendedData(i);
            }
        }
        return null;
    }
}
