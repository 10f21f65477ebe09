package org.etw4j.jna.internal;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.EtwException;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.provider.EventData;

/**
 * One thread's native scratch memory for provider calls: the EVENT_DESCRIPTOR, the two activity GUIDs, the
 * EVENT_DATA_DESCRIPTOR array and a copy of the data blocks, in Windows layout.
 *
 * <p>Confined to its thread (reached only through {@link #forThisThread()}); reused by every call of that
 * thread, so a write allocates no native memory once the data area has grown to the largest event the thread
 * writes. Freed by JNA's cleaner when the thread ends. The data blocks are copied because the Java arrays of an
 * {@link EventData} are on the heap, where native code must not keep pointers.
 *
 * <p>Layout of the fixed block ({@link #HEADER_BYTES} bytes): EVENT_DESCRIPTOR at 0, ActivityId at 16,
 * RelatedActivityId at 32, EVENT_DATA_DESCRIPTOR[128] at 48 (16 bytes each: u64 Ptr, u32 Size, u8 Type, u8 and
 * u16 reserved), a GUID for EventActivityIdControl at the end.
 */
final class WriteStaging {
    static final int DESCRIPTOR_OFFSET = 0;
    static final int ACTIVITY_OFFSET = 16;
    static final int RELATED_OFFSET = 32;
    static final int BLOCKS_OFFSET = 48;
    static final int BLOCK_DESCRIPTOR_BYTES = 16;
    static final int CONTROL_GUID_OFFSET = BLOCKS_OFFSET + EventData.MAX_BLOCKS * BLOCK_DESCRIPTOR_BYTES;
    static final int HEADER_BYTES = CONTROL_GUID_OFFSET + Guid.BYTES;
    /**
     * Largest total of data blocks staged. ETW rejects any event over 64 KB (ERROR_ARITHMETIC_OVERFLOW), so a
     * write above this is answered with that status without copying it or growing the scratch memory.
     */
    static final int MAX_STAGED_BYTES = 1 << 20;
    private static final int MIN_DATA_BYTES = 1024;

    private static final AtomicLong NATIVE_ALLOCATIONS = new AtomicLong();
    private static final ThreadLocal<WriteStaging> PER_THREAD = ThreadLocal.withInitial(WriteStaging::new);

    private final Memory header = allocate(HEADER_BYTES);
    private final Pointer descriptorPtr = header.share(DESCRIPTOR_OFFSET, EventDescriptor.BYTES);
    private final Pointer activityPtr = header.share(ACTIVITY_OFFSET, Guid.BYTES);
    private final Pointer relatedPtr = header.share(RELATED_OFFSET, Guid.BYTES);
    private final Pointer blocksPtr = header.share(BLOCKS_OFFSET, (long) EventData.MAX_BLOCKS * BLOCK_DESCRIPTOR_BYTES);
    private final Pointer controlGuidPtr = header.share(CONTROL_GUID_OFFSET, Guid.BYTES);
    /** The fixed block is built here in Java, then copied down with one native call. */
    private final byte[] scratch = new byte[HEADER_BYTES];
    /** Windows (x64, arm64) and Linux x86-64 are little-endian, as the descriptors' integer fields are. */
    private final ByteBuffer scratchView = ByteBuffer.wrap(scratch).order(ByteOrder.LITTLE_ENDIAN);
    private Memory data = allocate(MIN_DATA_BYTES);
    private long dataAddress = Pointer.nativeValue(data);

    private WriteStaging() {
    }

    /** The calling thread's staging memory. */
    static WriteStaging forThisThread() {
        return PER_THREAD.get();
    }

    /** How many native blocks ({@code new Memory}) staging has allocated in this process: a test hook. */
    static long nativeAllocations() {
        return NATIVE_ALLOCATIONS.get();
    }

    /**
     * {@code EventWriteTransfer} with {@code data}'s blocks copied to native memory.
     *
     * @return the Win32 status; ERROR_INVALID_PARAMETER for more than 128 blocks (as ETW), ERROR_ARITHMETIC_OVERFLOW
     *         above {@link #MAX_STAGED_BYTES}, ERROR_NOT_ENOUGH_MEMORY if the data area cannot grow
     */
    int writeTransfer(long regHandle, EventDescriptor descriptor, Guid activityId, Guid relatedActivityId, EventData events) {
        int count = events.count();
        if (count > EventData.MAX_BLOCKS) {
            return Win32Error.ERROR_INVALID_PARAMETER.code();
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += events.length(i);
        }
        if (total > MAX_STAGED_BYTES) {
            return Win32Error.ERROR_ARITHMETIC_OVERFLOW.code();
        }
        if (!ensureData((int) total)) {
            return Win32Error.ERROR_NOT_ENOUGH_MEMORY.code();
        }
        descriptor.writeTo(scratch, DESCRIPTOR_OFFSET);
        if (activityId != null) {
            activityId.writeTo(scratch, ACTIVITY_OFFSET);
        }
        if (relatedActivityId != null) {
            relatedActivityId.writeTo(scratch, RELATED_OFFSET);
        }
        int offset = 0;
        for (int i = 0; i < count; i++) {
            int length = events.length(i);
            if (length > 0) {
                data.write(offset, events.array(i), events.offset(i), length);
            }
            int d = BLOCKS_OFFSET + i * BLOCK_DESCRIPTOR_BYTES;
            scratchView.putLong(d, dataAddress + offset);
            scratchView.putInt(d + 8, length);
            scratchView.putInt(d + 12, events.type(i)); // Type (u8), Reserved1 (u8) and Reserved2 (u16) = 0
            offset += length;
        }
        header.write(0, scratch, 0, BLOCKS_OFFSET + count * BLOCK_DESCRIPTOR_BYTES);
        return Advapi32.EventWriteTransfer(regHandle, descriptorPtr, activityId == null ? null : activityPtr,
                relatedActivityId == null ? null : relatedPtr, count, count == 0 ? null : blocksPtr);
    }

    /** {@code EventSetInformation} with {@code information} copied to native memory (null: no buffer). */
    int setInformation(long regHandle, int informationClass, byte[] information) {
        int length = information == null ? 0 : information.length;
        if (length > MAX_STAGED_BYTES) {
            return Win32Error.ERROR_INVALID_PARAMETER.code();
        }
        if (!ensureData(length)) {
            return Win32Error.ERROR_NOT_ENOUGH_MEMORY.code();
        }
        if (length > 0) {
            data.write(0, information, 0, length);
        }
        return Advapi32.EventSetInformation(regHandle, informationClass, information == null ? null : data, length);
    }

    /**
     * {@code EventActivityIdControl}: passes {@code in} (or GUID_NULL) and returns the GUID the call leaves in
     * the buffer.
     *
     * @throws EtwException if the call fails
     */
    Guid activityIdControl(ActivityControl code, Guid in) {
        (in == null ? Guid.NULL : in).writeTo(scratch, CONTROL_GUID_OFFSET);
        header.write(CONTROL_GUID_OFFSET, scratch, CONTROL_GUID_OFFSET, Guid.BYTES);
        int status = Advapi32.EventActivityIdControl(code.code(), controlGuidPtr);
        if (status != 0) {
            throw new EtwException("EventActivityIdControl", status, "EVENT_ACTIVITY_CTRL_" + code.name());
        }
        header.read(CONTROL_GUID_OFFSET, scratch, CONTROL_GUID_OFFSET, Guid.BYTES);
        return Guid.readFrom(scratch, CONTROL_GUID_OFFSET);
    }

    /** Grows the data area to at least {@code bytes} (powers of two); false when native memory runs out. */
    private boolean ensureData(int bytes) {
        if (bytes <= data.size()) {
            return true;
        }
        long size = Math.max(MIN_DATA_BYTES, Long.highestOneBit(bytes - 1L) << 1);
        try {
            Memory grown = allocate(size);
            data = grown; // the old block is freed by JNA's cleaner once unreachable
            dataAddress = Pointer.nativeValue(grown);
            return true;
        } catch (OutOfMemoryError e) {
            return false;
        }
    }

    private static Memory allocate(long size) {
        NATIVE_ALLOCATIONS.incrementAndGet();
        return new Memory(size);
    }
}
