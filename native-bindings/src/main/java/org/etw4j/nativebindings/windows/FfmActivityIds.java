package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;

/**
 * New activity ids from {@code EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID)}: locally unique until
 * reboot (MS Learn, EventActivityIdControl). The current id is not kept here but in Java
 * ({@link org.etw4j.spi.JavaThreadActivityIds}): ETW keeps its own per OS thread, which a virtual thread does not
 * own, so the FFM backend never reads or sets it and passes the Java id to EventWriteTransfer instead.
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
}
