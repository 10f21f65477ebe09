package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The stand-in advapi32 (native-bindings/src/test/native, built by the test build into target/native) as the
 * library of the FFM backend, and downcalls to its control functions (EtwStandIn_*).
 *
 * <p>Thread-safe; the library is loaded once per JVM through {@link WindowsLibraries#load()} (the backend's one
 * seam), from the file the system property {@value WindowsLibraries#LIBRARY_PROPERTY} names (set by surefire).
 * Without the file (no gcc): tests skip with a message, except under {@code CI=true}, where they fail.
 */
final class StandIn {
    private static final Linker LINKER = Linker.nativeLinker();
    private static volatile Exports exports;

    private StandIn() {
    }

    /** Loads the stand-in (or skips/fails the calling test without it) and returns its control functions. */
    static Exports require() {
        Exports e = exports;
        if (e != null) {
            return e;
        }
        synchronized (StandIn.class) {
            if (exports == null) {
                Path lib = WindowsLibraries.configuredSubstitute();
                String why = lib == null ? "system property " + WindowsLibraries.LIBRARY_PROPERTY + " is not set"
                        : Files.isRegularFile(lib) ? null : lib + " was not built (is gcc installed?)";
                if (why != null) {
                    if (org.etw4j.testing.LinuxCi.proofsRequired()) {
                        fail("the ETW stand-in library is required under CI=true: " + why);
                    }
                    assumeTrue(false, "skipped: the ETW stand-in library is missing: " + why);
                }
                WindowsLibraries.load();
                exports = new Exports(org.etw4j.nativebindings.layout.EtwSymbols.lookup());
            }
            return exports;
        }
    }

    /** The EtwStandIn_* functions, as method handles. */
    static final class Exports {
        final MethodHandle install;
        final MethodHandle engineSize;
        final MethodHandle engineOffsetOf;
        final MethodHandle invokeEnableCallback;
        final MethodHandle invokeEnableCallbackFor;
        final MethodHandle selfUnregisterWaits;
        final MethodHandle osThreadActivityId;
        final MemorySegment activityIdControlPerOsThread;
        final MethodHandle invokeEventRecordCallback;
        final MethodHandle invokeBufferCallback;
        final MethodHandle setOpenTraceImpl;
        final MemorySegment openTraceWithLastError;
        /** etw_standin_token.h: {@code void EtwStandIn_SetProfilePrivilegeHeld(ULONG)} (also resets the record). */
        final MethodHandle setProfilePrivilegeHeld;
        /** etw_standin_token.h: {@code ULONG EtwStandIn_ProfilePrivilegeEnabled(void)}. */
        final MethodHandle profilePrivilegeEnabled;
        /** etw_standin_token.h: {@code ULONG EtwStandIn_OpenTokens(void)}. */
        final MethodHandle openTokens;

        private Exports(SymbolLookup lookup) {
            install = down(lookup, "EtwStandIn_Install", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            engineSize = down(lookup, "EtwStandIn_EngineSize", FunctionDescriptor.of(ValueLayout.JAVA_INT));
            engineOffsetOf = down(lookup, "EtwStandIn_EngineOffsetOf", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            invokeEnableCallback = down(lookup, "EtwStandIn_InvokeEnableCallback", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_BYTE, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            invokeEnableCallbackFor = down(lookup, "EtwStandIn_InvokeEnableCallbackFor", FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_BYTE, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            selfUnregisterWaits = down(lookup, "EtwStandIn_SelfUnregisterWaits", FunctionDescriptor.of(ValueLayout.JAVA_INT));
            osThreadActivityId = down(lookup, "EtwStandIn_OsThreadActivityId", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            activityIdControlPerOsThread = lookup.findOrThrow("EtwStandIn_EventActivityIdControlPerOsThread");
            invokeEventRecordCallback = down(lookup, "EtwStandIn_InvokeEventRecordCallback",
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            invokeBufferCallback = down(lookup, "EtwStandIn_InvokeBufferCallback",
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            setOpenTraceImpl = down(lookup, "EtwStandIn_SetOpenTraceImpl", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            openTraceWithLastError = lookup.findOrThrow("EtwStandIn_OpenTraceWithLastError");
            setProfilePrivilegeHeld = down(lookup, "EtwStandIn_SetProfilePrivilegeHeld",
                    FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
            profilePrivilegeEnabled = down(lookup, "EtwStandIn_ProfilePrivilegeEnabled",
                    FunctionDescriptor.of(ValueLayout.JAVA_INT));
            openTokens = down(lookup, "EtwStandIn_OpenTokens", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        }

        private static MethodHandle down(SymbolLookup lookup, String name, FunctionDescriptor d) {
            return LINKER.downcallHandle(lookup.findOrThrow(name), d);
        }
    }
}
