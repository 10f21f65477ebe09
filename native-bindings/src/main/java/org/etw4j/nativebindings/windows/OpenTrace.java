package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.etw4j.nativebindings.generated.EtwNative;

/**
 * {@code OpenTraceW} with its last error: it returns INVALID_PROCESSTRACE_HANDLE and leaves the reason in the
 * thread's last error, which must be read right after the call, by the JVM, before anything else can change it.
 * So the downcall is linked with {@code Linker.Option.captureCallState} (never a separate GetLastError call):
 * "GetLastError" on Windows, "errno" where only a substitute library runs ({@link WindowsLibraries#lastErrorStateName}).
 *
 * <p>Stateless; thread-safe; the handle is linked on first use (after the library is loaded).
 */
final class OpenTrace {
    private OpenTrace() {
    }

    /** What OpenTraceW returned, and the last error captured when it failed. */
    record Result(long handle, int lastError) {
        boolean failed() {
            return handle == EtwNative.INVALID_PROCESSTRACE_HANDLE();
        }
    }

    private static final class Linked {
        static final String STATE = WindowsLibraries.lastErrorStateName();
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle LAST_ERROR = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement(STATE));
        static final MethodHandle OPEN_TRACE = Linker.nativeLinker().downcallHandle(EtwNative.OpenTraceW$address(),
                EtwNative.OpenTraceW$descriptor(), Linker.Option.captureCallState(STATE));
    }

    /** Calls OpenTraceW on {@code logfile} (an EVENT_TRACE_LOGFILEW). */
    static Result open(MemorySegment logfile) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(Linked.CAPTURE);
            long handle = (long) Linked.OPEN_TRACE.invokeExact(state, logfile);
            int lastError = handle == EtwNative.INVALID_PROCESSTRACE_HANDLE() ? (int) Linked.LAST_ERROR.get(state, 0L) : 0;
            return new Result(handle, lastError);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("OpenTraceW downcall failed", t);
        }
    }
}
