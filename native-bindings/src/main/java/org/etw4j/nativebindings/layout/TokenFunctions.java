package org.etw4j.nativebindings.layout;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The token functions that enable a privilege, bound by hand from Microsoft's documented prototypes because the
 * generated bindings cover only the ETW headers (and jextract, which is in no registry, could not be run to widen
 * them): advapi32's {@code OpenProcessToken}, {@code LookupPrivilegeValueW}, {@code AdjustTokenPrivileges}, and
 * kernel32's {@code GetCurrentProcess} and {@code CloseHandle} (MS Learn: "OpenProcessToken function
 * (processthreadsapi.h)", "LookupPrivilegeValueW function (winbase.h)", "AdjustTokenPrivileges function
 * (securitybaseapi.h)", "GetCurrentProcess function", "CloseHandle function"; "Enabling and Disabling Privileges in
 * C++"). The layouts and constants are the headers' (winnt.h), which {@code PrivilegeAbiTest} checks with the
 * mingw-w64 cross-compiler, and {@code WindowsAbiTest} checks every descriptor against the prototype.
 *
 * <p>{@code OpenProcessToken}, {@code LookupPrivilegeValueW} and {@code AdjustTokenPrivileges} report through the
 * thread's last error: they are linked with {@code Linker.Option.captureCallState} ({@link #CALL_STATE}, slot
 * {@link EtwSymbols#lastErrorStateName()}) and take the capture segment first. {@code AdjustTokenPrivileges} returns
 * TRUE when the token lacks the privilege and leaves ERROR_NOT_ALL_ASSIGNED there, so its last error is read on
 * success too.
 *
 * <p>Stateless and thread-safe; symbols resolve on first call, after {@code WindowsLibraries.load()}.
 */
public final class TokenFunctions {
    /** winnt.h: the access right to enable or disable a token's privileges. */
    public static final int TOKEN_ADJUST_PRIVILEGES = 0x0020;
    /** winnt.h: the access right to query a token. */
    public static final int TOKEN_QUERY = 0x0008;
    /** winnt.h: the attribute that enables a privilege in {@code LUID_AND_ATTRIBUTES}. */
    public static final int SE_PRIVILEGE_ENABLED = 0x0000_0002;
    /** winerror.h: AdjustTokenPrivileges' last error when the token does not hold a privilege. */
    public static final int ERROR_NOT_ALL_ASSIGNED = 1300;
    /** winnt.h {@code SE_SYSTEM_PROFILE_NAME}: the privilege CPU sampling and its interval need. */
    public static final String SE_SYSTEM_PROFILE_NAME = "SeSystemProfilePrivilege";

    /** {@code LUID}: {@code DWORD LowPart; LONG HighPart} (8 bytes, 4-aligned). */
    public static final StructLayout LUID = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("LowPart"), ValueLayout.JAVA_INT.withName("HighPart")).withName("_LUID");
    /** {@code LUID_AND_ATTRIBUTES}: {@code LUID Luid; DWORD Attributes} (12 bytes). */
    public static final StructLayout LUID_AND_ATTRIBUTES = MemoryLayout.structLayout(
            LUID.withName("Luid"), ValueLayout.JAVA_INT.withName("Attributes")).withName("_LUID_AND_ATTRIBUTES");
    /** {@code TOKEN_PRIVILEGES} with its one declared element: {@code DWORD PrivilegeCount; Privileges[1]}. */
    public static final StructLayout TOKEN_PRIVILEGES = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("PrivilegeCount"),
            MemoryLayout.sequenceLayout(1, LUID_AND_ATTRIBUTES).withName("Privileges")).withName("_TOKEN_PRIVILEGES");

    /** {@code BOOL OpenProcessToken(HANDLE ProcessHandle, DWORD DesiredAccess, PHANDLE TokenHandle)}. */
    public static final FunctionDescriptor OPEN_PROCESS_TOKEN = FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
    /** {@code BOOL LookupPrivilegeValueW(LPCWSTR lpSystemName, LPCWSTR lpName, PLUID lpLuid)}. */
    public static final FunctionDescriptor LOOKUP_PRIVILEGE_VALUE_W = FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
    /**
     * {@code BOOL AdjustTokenPrivileges(HANDLE TokenHandle, BOOL DisableAllPrivileges, PTOKEN_PRIVILEGES NewState,
     * DWORD BufferLength, PTOKEN_PRIVILEGES PreviousState, PDWORD ReturnLength)}.
     */
    public static final FunctionDescriptor ADJUST_TOKEN_PRIVILEGES = FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.ADDRESS);
    /** {@code HANDLE GetCurrentProcess(void)}. */
    public static final FunctionDescriptor GET_CURRENT_PROCESS = FunctionDescriptor.of(ValueLayout.ADDRESS);
    /** {@code BOOL CloseHandle(HANDLE hObject)}. */
    public static final FunctionDescriptor CLOSE_HANDLE = FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS);

    /** The capture segment's layout the three last-error functions take first. */
    public static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle LAST_ERROR = CALL_STATE.varHandle(
            MemoryLayout.PathElement.groupElement(EtwSymbols.lastErrorStateName()));

    private static final Linker.Option CAPTURE = Linker.Option.captureCallState(EtwSymbols.lastErrorStateName());
    private static final LazyDowncall OPEN =
            new LazyDowncall("OpenProcessToken", OPEN_PROCESS_TOKEN, "advapi32.dll", CAPTURE);
    private static final LazyDowncall LOOKUP =
            new LazyDowncall("LookupPrivilegeValueW", LOOKUP_PRIVILEGE_VALUE_W, "advapi32.dll", CAPTURE);
    private static final LazyDowncall ADJUST =
            new LazyDowncall("AdjustTokenPrivileges", ADJUST_TOKEN_PRIVILEGES, "advapi32.dll", CAPTURE);
    private static final LazyDowncall CURRENT_PROCESS =
            new LazyDowncall("GetCurrentProcess", GET_CURRENT_PROCESS, "kernel32.dll");
    private static final LazyDowncall CLOSE = new LazyDowncall("CloseHandle", CLOSE_HANDLE, "kernel32.dll");

    private TokenFunctions() {
    }

    /** The last error a call linked here left in {@code callState}. */
    public static int lastError(MemorySegment callState) {
        return (int) LAST_ERROR.get(callState, 0L);
    }

    /** Opens the access token of {@code process}; see {@link #OPEN_PROCESS_TOKEN}. */
    public static int OpenProcessToken(MemorySegment callState, MemorySegment process, int desiredAccess,
                                       MemorySegment tokenHandle) {
        try {
            return (int) OPEN.handle().invokeExact(callState, process, desiredAccess, tokenHandle);
        } catch (Throwable t) {
            throw LazyDowncall.rethrow(t);
        }
    }

    /** The LUID of a privilege named as a NUL-terminated UTF-16 string; see {@link #LOOKUP_PRIVILEGE_VALUE_W}. */
    public static int LookupPrivilegeValueW(MemorySegment callState, MemorySegment systemName, MemorySegment name,
                                            MemorySegment luid) {
        try {
            return (int) LOOKUP.handle().invokeExact(callState, systemName, name, luid);
        } catch (Throwable t) {
            throw LazyDowncall.rethrow(t);
        }
    }

    /** Enables or disables privileges of a token; see {@link #ADJUST_TOKEN_PRIVILEGES}. */
    public static int AdjustTokenPrivileges(MemorySegment callState, MemorySegment token, int disableAll,
                                            MemorySegment newState, int bufferLength, MemorySegment previousState,
                                            MemorySegment returnLength) {
        try {
            return (int) ADJUST.handle().invokeExact(callState, token, disableAll, newState, bufferLength,
                    previousState, returnLength);
        } catch (Throwable t) {
            throw LazyDowncall.rethrow(t);
        }
    }

    /** The pseudo handle of the current process (needs no closing). */
    public static MemorySegment GetCurrentProcess() {
        try {
            return (MemorySegment) CURRENT_PROCESS.handle().invokeExact();
        } catch (Throwable t) {
            throw LazyDowncall.rethrow(t);
        }
    }

    /** Closes a handle such as the token {@link #OpenProcessToken} opened. */
    public static int CloseHandle(MemorySegment handle) {
        try {
            return (int) CLOSE.handle().invokeExact(handle);
        } catch (Throwable t) {
            throw LazyDowncall.rethrow(t);
        }
    }
}
