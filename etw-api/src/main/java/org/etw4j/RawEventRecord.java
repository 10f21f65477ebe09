package org.etw4j;

import java.nio.ByteBuffer;

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

    /**
     * Copies the {@link #userDataLength()} bytes of user data into {@code dst} at {@code offset}, valid only during
     * the callback. Implementations over mapped or native memory override it to copy without making the slice
     * {@link #userData()} returns (a decoder that reads every event in place must not allocate per event).
     */
    default void copyUserData(byte[] dst, int offset) {
        ByteBuffer b = userData();
        b.get(b.position(), dst, offset, b.remaining());
    }

    /**
     * Whether {@link #eventInformation()} and {@link #eventMapInformation(String)} can ask the platform about this
     * record: true only for a live Windows record (the FFM backend's view of an {@code EVENT_RECORD}) during its
     * callback; false for copies, records read by the pure-Java .etl reader and records of other backends, whose
     * {@code null} answers then mean "cannot ask", not "the platform has no schema".
     */
    default boolean providesEventInformation() {
        return false;
    }

    /**
     * The schema the platform's TDH has for this event: the {@code TRACE_EVENT_INFO} that
     * {@code TdhGetEventInformation} returns for the record (layout: Microsoft Learn, "TRACE_EVENT_INFO
     * structure (tdh.h)"; offsets inside it are relative to its start), or {@code null} when TDH has none
     * ({@code ERROR_NOT_FOUND}) or {@link #providesEventInformation() this record cannot ask}.
     *
     * <p>Threading and lifetime: call it on the thread of the callback that delivered the record, during that
     * callback; the buffer is a read-only little-endian view of memory the backend reuses for the next lookup
     * and is invalid once the callback returns (copy what you keep). A record's {@link #copy()} does not carry
     * it: TDH is asked per call, so callers cache what they derive from it (per provider, id, version and
     * opcode) and ask only for events nothing else describes. Backends may remember TDH's misses.
     *
     * <p>Why a method of the record: TDH resolves a schema from the {@code EVENT_RECORD} itself (provider,
     * descriptor, and for TraceLogging events their schema item), which only the backend's view can hand to it;
     * decoders that must not depend on the native backend reach it through this interface.
     *
     * @throws org.etw4j.EtwException when TDH fails otherwise than with ERROR_NOT_FOUND (named, with its code)
     * @throws IllegalStateException  when called on a view after its callback returned
     */
    default ByteBuffer eventInformation() {
        return null;
    }

    /**
     * The value map or bit map {@code mapName} that this record's schema refers to, as TDH has it: the
     * {@code EVENT_MAP_INFO} that {@code TdhGetEventMapInformation} returns (Microsoft Learn, "EVENT_MAP_INFO
     * structure (tdh.h)"), or {@code null} when TDH has none or this record cannot ask. Same threading, lifetime
     * and errors as {@link #eventInformation()} (a separate buffer: it does not overwrite that one).
     */
    default ByteBuffer eventMapInformation(String mapName) {
        return null;
    }

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
