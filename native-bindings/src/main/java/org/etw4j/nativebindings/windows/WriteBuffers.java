package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.locks.LockSupport;
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
 *
 * <p>It also marks the registration its thread is writing through ({@link #enter}/{@link #exit}), the cheap half of
 * the close protocol of {@link FfmProviderRegistration}: a write publishes the mark with one fenced store and
 * clears it with a plain release store, instead of incrementing and decrementing the registration's shared
 * {@link org.etw4j.spi.CloseGate} counter (two atomic read-modify-writes, a third of the backend's own time in
 * FfmWriteBenchmark's profile). Closing scans every thread's mark ({@link #awaitNoWriter}).
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
    private static final long KEYWORD = _EVENT_DESCRIPTOR.Keyword$offset();
    private static final int INITIAL_STAGING = 1024;
    /** The per-write stores: all at 8-aligned offsets of 8-aligned memory, so the alignment check is skipped. */
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    static {
        // The packed stores below assume the SDK layout (Windows is little-endian) with Size and the Type word
        // adjacent; checked once here against the generated layouts rather than assumed silently.
        boolean packable = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                && _EVENT_DESCRIPTOR.Id$offset() == 0 && _EVENT_DESCRIPTOR.Version$offset() == 2
                && _EVENT_DESCRIPTOR.Channel$offset() == 3 && _EVENT_DESCRIPTOR.Level$offset() == 4
                && _EVENT_DESCRIPTOR.Opcode$offset() == 5 && _EVENT_DESCRIPTOR.Task$offset() == 6
                && KEYWORD == 8 && DESCRIPTOR_BYTES == 16
                && DD_SIZE % 8 == 0 && DD_TYPE_WORD == DD_SIZE + 4 && DD_PTR % 8 == 0 && DATA_DESCRIPTOR_BYTES == 16;
        if (!packable) {
            throw new IllegalStateException("EVENT_DESCRIPTOR / EVENT_DATA_DESCRIPTOR layout differs from the SDK's");
        }
    }

    private static final ThreadLocal<WriteBuffers> CURRENT = ThreadLocal.withInitial(WriteBuffers::new);
    /** Every thread's instance, weakly: a dead thread's goes with its ThreadLocal value. Guarded by itself. */
    private static final Map<WriteBuffers, Boolean> ALL = Collections.synchronizedMap(new WeakHashMap<>());
    private static final VarHandle WRITING;

    static {
        try {
            WRITING = MethodHandles.lookup().findVarHandle(WriteBuffers.class, "writing", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The registration this thread is writing through now, or null; accessed through {@link #WRITING}. */
    @SuppressWarnings("unused")
    private Object writing;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment descriptor;
    private final MemorySegment activityId;
    private final MemorySegment relatedActivityId;
    private final MemorySegment dataDescriptors;
    private MemorySegment staging;
    /** The ids now in {@link #activityId} and {@link #relatedActivityId} (null: not written yet), to skip rewriting them. */
    private Guid activityWritten;
    private Guid relatedWritten;

    private WriteBuffers() {
        MemorySegment fixed = arena.allocate(DESCRIPTOR_BYTES + 2 * NativeGuids.BYTES + MAX_BLOCKS * DATA_DESCRIPTOR_BYTES, 8);
        descriptor = fixed.asSlice(0, DESCRIPTOR_BYTES);
        activityId = fixed.asSlice(DESCRIPTOR_BYTES, NativeGuids.BYTES);
        relatedActivityId = fixed.asSlice(DESCRIPTOR_BYTES + NativeGuids.BYTES, NativeGuids.BYTES);
        dataDescriptors = fixed.asSlice(DESCRIPTOR_BYTES + 2 * NativeGuids.BYTES);
        growStaging(INITIAL_STAGING);
        ALL.put(this, Boolean.TRUE);
    }

    /**
     * Marks this thread as writing through {@code registration}; the caller then reads the registration's closed
     * flag and calls {@link #exit()} when done. False, nothing marked, when this thread is already inside a write
     * (a callback from inside EventWriteTransfer writing again): the caller then uses the registration's gate.
     *
     * <p>Why it is safe (Dekker's pattern, as {@link org.etw4j.spi.CloseGate}'s): the mark is a volatile store
     * and the closed flag a volatile read after it; a closer writes the flag (volatile) and only then reads every
     * mark ({@link #awaitNoWriter}). In the one total order of these actions, either the closer sees the mark and
     * waits, or the writer sees the flag and turns back.
     */
    boolean enter(Object registration) {
        if (WRITING.getOpaque(this) != null) {
            return false;
        }
        WRITING.setVolatile(this, registration);
        return true;
    }

    /** Ends the write {@link #enter} marked. */
    void exit() {
        WRITING.setRelease(this, null);
    }

    /**
     * Waits until no thread is marked as writing through {@code registration}. Call only after the registration
     * is marked closed (new writes then turn back, so this ends once the ones inside have returned).
     */
    static void awaitNoWriter(Object registration) {
        List<WriteBuffers> all;
        synchronized (ALL) {
            all = new ArrayList<>(ALL.keySet());
        }
        for (WriteBuffers b : all) {
            int spins = 0;
            while (WRITING.getVolatile(b) == registration) {
                if (++spins < 1_000) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
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
        MemorySegment stage = staging;
        MemorySegment dds = dataDescriptors;
        long base = stage.address();
        long at = 0;
        long dd = 0;
        for (int i = 0; i < count; i++) {
            int length = data.length(i);
            MemorySegment.copy(data.array(i), data.offset(i), stage, ValueLayout.JAVA_BYTE, at, length);
            dds.set(LONG, dd + DD_PTR, base + at);
            dds.set(LONG, dd + DD_SIZE, sizeAndType(length, data.type(i)));
            at += length;
            dd += DATA_DESCRIPTOR_BYTES;
        }
        descriptor.set(LONG, 0, descriptorLow(d));
        descriptor.set(LONG, KEYWORD, d.keyword());
        MemorySegment act = MemorySegment.NULL; // NULL: ETW uses the thread's activity id
        if (activity != null) {
            // most writes carry the same id as the thread's previous one (GUID_NULL outside activities)
            if (!activity.equals(activityWritten)) {
                NativeGuids.write(activityId, 0, activity);
                activityWritten = activity;
            }
            act = activityId;
        }
        MemorySegment rel = MemorySegment.NULL;
        if (related != null) {
            if (!related.equals(relatedWritten)) {
                NativeGuids.write(relatedActivityId, 0, related);
                relatedWritten = related;
            }
            rel = relatedActivityId;
        }
        return EtwNative.EventWriteTransfer(regHandle, descriptor, act, rel, count,
                count == 0 ? MemorySegment.NULL : dds);
    }

    /**
     * The first 8 bytes of an {@code EVENT_DESCRIPTOR} (u16 Id, u8 Version, u8 Channel, u8 Level, u8 Opcode, u16
     * Task), as one little-endian long: one store instead of six.
     */
    static long descriptorLow(EventDescriptor d) {
        return (d.id() & 0xFFFFL)
                | (d.version() & 0xFFL) << 16
                | (d.channel() & 0xFFL) << 24
                | (d.level() & 0xFFL) << 32
                | (d.opcode() & 0xFFL) << 40
                | (d.task() & 0xFFFFL) << 48;
    }

    /**
     * The 8 bytes of an {@code EVENT_DATA_DESCRIPTOR} after its Ptr (u32 Size, then the u32 Reserved whose low
     * byte is Type) as one little-endian long.
     */
    static long sizeAndType(int length, int type) {
        return Integer.toUnsignedLong(length) | (type & 0xFFL) << 32;
    }

    private void growStaging(int atLeast) {
        long size = staging == null ? INITIAL_STAGING : staging.byteSize();
        while (size < atLeast) {
            size *= 2;
        }
        staging = arena.allocate(Math.min(size, Math.max(atLeast, MAX_EVENT_BYTES)), 8);
    }
}
