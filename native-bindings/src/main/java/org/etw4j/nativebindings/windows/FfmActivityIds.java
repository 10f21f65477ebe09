package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.spi.ThreadActivityIds;

/**
 * The calling thread's activity id through {@code EventActivityIdControl}: ETW keeps it per thread, and
 * {@code EventWriteTransfer} with a NULL ActivityId uses it.
 *
 * <p>Thread-safe: every call acts on the calling thread only, through a 16-byte buffer of that thread (an
 * automatic arena frees it with the thread). Failures throw {@link org.etw4j.EtwException} naming
 * EventActivityIdControl.
 */
final class FfmActivityIds implements ThreadActivityIds {
    private static final ThreadLocal<MemorySegment> BUFFER =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(NativeGuids.BYTES, 8));

    @Override
    public Guid get() {
        return control(EtwNative.EVENT_ACTIVITY_CTRL_GET_ID(), null);
    }

    @Override
    public Guid set(Guid activityId) {
        return control(EtwNative.EVENT_ACTIVITY_CTRL_GET_SET_ID(), activityId == null ? Guid.NULL : activityId);
    }

    @Override
    public Guid create() {
        return control(EtwNative.EVENT_ACTIVITY_CTRL_CREATE_ID(), null);
    }

    @Override
    public Guid createAndSet() {
        return control(EtwNative.EVENT_ACTIVITY_CTRL_CREATE_SET_ID(), null);
    }

    /** Runs {@code code} with {@code in} (if any) in the buffer and returns what ETW left there. */
    private static Guid control(int code, Guid in) {
        MemorySegment buffer = BUFFER.get();
        NativeGuids.write(buffer, 0, in);
        int status = EtwNative.EventActivityIdControl(code, buffer);
        Win32Errors.check("EventActivityIdControl", status, "control code " + code);
        return NativeGuids.read(buffer, 0);
    }
}
