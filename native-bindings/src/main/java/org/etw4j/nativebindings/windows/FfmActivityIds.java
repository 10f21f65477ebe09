package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;

/**
 * New activity ids from {@code EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID)}: locally unique until
 * reboot (MS Learn, EventActivityIdControl); and, in {@link OsThread}, the OS thread's own id, which
 * {@link org.etw4j.spi.JavaThreadActivityIds} uses on platform threads only.
 *
 * <p>Thread-safe; stateless. Failures throw {@link org.etw4j.EtwException} naming EventActivityIdControl.
 */
final class FfmActivityIds implements Supplier<Guid> {

    @Override
    public Guid get() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buffer = call.allocate(NativeGuids.BYTES, 8);
            int code = EtwNative.EVENT_ACTIVITY_CTRL_CREATE_ID();
            int status = EtwNative.EventActivityIdControl(code, buffer);
            Win32Errors.check("EventActivityIdControl", status, "control code " + code);
            return NativeGuids.read(buffer, 0);
        }
    }

    /** ETW's id of the calling OS thread: EVENT_ACTIVITY_CTRL_GET_ID and GET_SET_ID. */
    static final class OsThread implements org.etw4j.spi.OsThreadActivityIds {
        @Override
        public Guid getAndSet(Guid activityId) {
            return control(EtwNative.EVENT_ACTIVITY_CTRL_GET_SET_ID(), activityId);
        }

        @Override
        public Guid get() {
            return control(EtwNative.EVENT_ACTIVITY_CTRL_GET_ID(), Guid.NULL);
        }

        private static Guid control(int code, Guid in) {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment buffer = call.allocate(NativeGuids.BYTES, 8);
                NativeGuids.write(buffer, 0, in);
                int status = EtwNative.EventActivityIdControl(code, buffer);
                Win32Errors.check("EventActivityIdControl", status, "control code " + code);
                return NativeGuids.read(buffer, 0);
            }
        }
    }
}
