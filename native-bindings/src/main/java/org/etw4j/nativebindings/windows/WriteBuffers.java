package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_DATA_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;
import org.etw4j.provider.EventData;

/**
 * The native memory one thread writes events through: an {@code EVENT_DESCRIPTOR}, two activity-id GUIDs, 128
 * {@code EVENT_DATA_DESCRIPTOR}s and a staging area the data blocks are copied into (ETW reads the blocks by
 * address, and Java arrays have none that native code may keep).
 *
 * <p>One per thread ({@link #current()}), never shared, so no locking; allocated once and reused, so a write
 * allocates neither Java objects nor native memory once the staging area has grown to the thread's largest
 * event (it never exceeds ETW's 64 KB event limit: a larger event fails with ERROR_ARITHMETIC_OVERFLOW before
 * anything is copied). The memory belongs to an automatic arena: the thread's instance is its only owner, and
 * the memory is freed when the thread (and so its ThreadLocal value) is gone.
 */
final class WriteBuffers {
    /** {@code MAX_EVENT_DATA_DESCRIPTORS}: most data blocks one EventWrite takes. */
    static final int MAX_BLOCKS = EtwNative.MAX_EVENT_DATA_DESCRIPTORS();
    /** Largest event ETW accepts (header included): more payload than this can never be written. */
    static final int MAX_EVENT_BYTES = EventHeaderLayout.MAX_EVENT_SIZE;

    private static final long DESCRIPTOR_BYTES = _EVENT_DESCRIPTOR.layout().byteSize();
    private static final long DATA_DESCRIPTOR_BYTES = _EVENT_DATA_DESCRIPTOR.layout().byteSize();
    private static final long DD_PTR = _EVENT_DATA_DESCRIPTOR.Ptr$offset();
    private static final long DD_SIZE = _EVENT_DATA_DESCRIPTOR.Size$offset();
    /** The ULONG {@code Reserved}, in the SDK a union whose first byte is {@code Type} (EVENT_DATA_DESCRIPTOR_TYPE_*). */
    private static final long DD_TYPE_WORD = _EVENT_DATA_DESCRIPTOR.Reserved$offset();
    private static final int INITIAL_STAGING = 1024;

    private static final ThreadLocal<WriteBuffers> CURRENT = ThreadLocal.withInitial(WriteBuffers::new);

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment descriptor;
    private final MemorySegment activityId;
    private final MemorySegment relatedActivityId;
    private final MemorySegment dataDescriptors;
    private MemorySegment staging;
    private ByteBuffer stagingBytes;

    private WriteBuffers() {
        MemorySegment fixed = arena.allocate(DESCRIPTOR_BYTES + 2 * NativeGuids.BYTES + MAX_BLOCKS * DATA_DESCRIPTOR_BYTES, 8);
        descriptor = fixed.asSlice(0, DESCRIPTOR_BYTES);
        activityId = fixed.asSlice(DESCRIPTOR_BYTES, NativeGuids.BYTES);
        relatedActivityId = fixed.asSlice(DESCRIPTOR_BYTES + NativeGuids.BYTES, NativeGuids.BYTES);
        dataDescriptors = fixed.asSlice(DESCRIPTOR_BYTES + 2 * NativeGuids.BYTES);
        growStaging(INITIAL_STAGING);
    }

    /** The calling thread's buffers. */
    static WriteBuffers current() {
        return CURRENT.get();
    }

    /**
     * {@code EventWriteTransfer(handle, descriptor, activityId, relatedActivityId, data)}: copies the event into
     * this thread's native memory and calls ETW. Returns the Win32 status.
     */
    int writeTransfer(long regHandle, EventDescriptor d, Guid activity, Guid related, EventData data) {
        int count = data.count();
        if (count > MAX_BLOCKS) {
            return Win32Errors.ERROR_INVALID_PARAMETER;
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += data.length(i);
        }
        if (total > MAX_EVENT_BYTES) {
            return Win32Errors.ERROR_ARITHMETIC_OVERFLOW; // ETW's answer for an event above 64 KB; nothing copied
        }
        if (total > staging.byteSize()) {
            growStaging((int) total);
        }
        long base = staging.address();
        int at = 0;
        for (int i = 0; i < count; i++) {
            int length = data.length(i);
            stagingBytes.put(at, data.array(i), data.offset(i), length);
            long dd = i * DATA_DESCRIPTOR_BYTES;
            dataDescriptors.set(ValueLayout.JAVA_LONG, dd + DD_PTR, base + at);
            dataDescriptors.set(ValueLayout.JAVA_INT, dd + DD_SIZE, length);
            dataDescriptors.set(ValueLayout.JAVA_INT, dd + DD_TYPE_WORD, data.type(i) & 0xFF);
            at += length;
        }
        _EVENT_DESCRIPTOR.Id(descriptor, (short) d.id());
        _EVENT_DESCRIPTOR.Version(descriptor, (byte) d.version());
        _EVENT_DESCRIPTOR.Channel(descriptor, (byte) d.channel());
        _EVENT_DESCRIPTOR.Level(descriptor, (byte) d.level());
        _EVENT_DESCRIPTOR.Opcode(descriptor, (byte) d.opcode());
        _EVENT_DESCRIPTOR.Task(descriptor, (short) d.task());
        _EVENT_DESCRIPTOR.Keyword(descriptor, d.keyword());
        MemorySegment act = MemorySegment.NULL; // NULL: ETW uses the thread's activity id
        if (activity != null) {
            NativeGuids.write(activityId, 0, activity);
            act = activityId;
        }
        MemorySegment rel = MemorySegment.NULL;
        if (related != null) {
            NativeGuids.write(relatedActivityId, 0, related);
            rel = relatedActivityId;
        }
        return EtwNative.EventWriteTransfer(regHandle, descriptor, act, rel, count,
                count == 0 ? MemorySegment.NULL : dataDescriptors);
    }

    private void growStaging(int atLeast) {
        long size = staging == null ? INITIAL_STAGING : staging.byteSize();
        while (size < atLeast) {
            size *= 2;
        }
        staging = arena.allocate(Math.min(size, Math.max(atLeast, MAX_EVENT_BYTES)), 8);
        stagingBytes = staging.asByteBuffer();
    }
}
