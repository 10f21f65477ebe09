package org.etw4j.jna.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The stand-in advapi32 (native-bindings/src/test/native/etw_standin.c), built by this module's test build into
 * target/native/libetw_standin.so, and the JNA view of its exports.
 *
 * <p>Test helper; thread-safe. When the library is missing (no gcc on this machine, or a Windows build) the
 * calling test is skipped with a message saying so; with env {@code CI=true} it fails instead, because CI
 * always has gcc and a skip there would hide a broken build.
 */
public final class StandIn {
    /** System property (set by surefire) with the library path. */
    public static final String PROPERTY = "etw4j.standin.library";

    private static volatile Exports exports;

    private StandIn() {
    }

    /** The stand-in's exports; skips (locally) or fails (CI) the calling test when the library is missing. */
    /** The address of an exported function of the stand-in (to put in an engine table slot). */
    static Pointer function(String name) {
        return com.sun.jna.NativeLibrary.getInstance(path().toString()).getFunction(name);
    }

    static Exports exports() {
        Exports e = exports;
        if (e != null) {
            return e;
        }
        synchronized (StandIn.class) {
            if (exports == null) {
                exports = Native.load(path().toString(), Exports.class);
            }
            return exports;
        }
    }

    /** The library file; skips or fails as described in the class comment when it is missing. */
    static Path path() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank() || !Files.isRegularFile(Path.of(p))) {
            String msg = "stand-in library not found (" + PROPERTY + "=" + p + "): the test build compiles it with gcc"
                    + " from native-bindings/src/test/native (build-standin.sh); without gcc these tests are skipped";
            if (org.etw4j.testing.LinuxCi.proofsRequired()) {
                throw new AssertionError(msg + "; CI=true, so this is a failure");
            }
            Assumptions.abort(msg);
        }
        return Path.of(p);
    }

    /** The exports of libetw_standin.so, through JNA interface mapping (test code: convenience over speed). */
    public interface Exports extends Library {
        void EtwStandIn_Install(StandInEngineTable table);

        void EtwStandIn_Install(Pointer table);

        int EtwStandIn_IsInstalled();

        int EtwStandIn_EngineVersion();

        int EtwStandIn_EngineSize();

        int EtwStandIn_EngineOffsetOf(String name);

        int EtwStandIn_SizeOf(String name);

        void EtwStandIn_InvokeEnableCallback(Pointer callback, Pointer sourceId, int isEnabled, byte level, long matchAnyKeyword,
                                             long matchAllKeyword, Pointer filterData, Pointer callbackContext);

        void EtwStandIn_InvokeEnableCallbackFor(long regHandle, Pointer callback, Pointer sourceId, int isEnabled, byte level,
                                                long matchAnyKeyword, long matchAllKeyword, Pointer filterData,
                                                Pointer callbackContext);

        int EtwStandIn_SelfUnregisterWaits();

        int EtwStandIn_EventActivityIdControlPerOsThread(int controlCode, Pointer activityId);

        void EtwStandIn_OsThreadActivityId(Pointer activityId);

        int EtwStandIn_EventWriteTransferNoop(long regHandle, Pointer descriptor, Pointer activityId, Pointer relatedActivityId,
                                              int userDataCount, Pointer userData);

        long EtwStandIn_WriteTransferLoop(long iterations, long regHandle, Pointer descriptor, Pointer activityId,
                                          Pointer relatedActivityId, int userDataCount, Pointer userData);

        int EventWriteTransfer(long regHandle, Pointer descriptor, Pointer activityId, Pointer relatedActivityId, int userDataCount,
                               Pointer userData);

        int EventWrite(long regHandle, Pointer descriptor, int userDataCount, Pointer userData);

        int EventWriteEx(long regHandle, Pointer descriptor, long filter, int flags, Pointer activityId, Pointer relatedActivityId,
                         int userDataCount, Pointer userData);

        byte EventEnabled(long regHandle, Pointer descriptor);

        byte EventProviderEnabled(long regHandle, byte level, long keyword);

        int EventUnregister(long regHandle);

        int StartTraceW(Pointer traceHandle, Pointer instanceName, Pointer properties);

        long OpenTraceW(Pointer logfile);

        int TdhGetEventInformation(Pointer event, int contextCount, Pointer context, Pointer buffer, Pointer bufferSize);
    }
}
