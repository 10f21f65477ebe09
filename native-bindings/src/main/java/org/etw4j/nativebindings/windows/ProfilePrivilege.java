package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelTracing;
import org.etw4j.nativebindings.layout.TokenFunctions;

/**
 * Enables {@code SeSystemProfilePrivilege} in the process token before a kernel session that samples the CPU.
 *
 * <p>Why (MS Learn): "TraceSetInformation function" and "TRACE_QUERY_INFO_CLASS" (TraceSampledProfileIntervalInfo:
 * "requires the SeSystemProfilePrivilege"), "Configuring and Starting a SystemTraceProvider Session" and
 * EVENT_TRACE_FLAG_PROFILE ("requires the SeSystemProfilePrivilege"). An elevated Administrator's token holds the
 * privilege disabled, so it must be enabled, as TraceEvent ({@code TraceEventSession} calls
 * {@code TraceEventNativeMethods.SetSystemProfilePrivilege} before a kernel session) and xperf do. The steps are
 * those of MS Learn's "Enabling and Disabling Privileges in C++": OpenProcessToken(GetCurrentProcess(),
 * TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY), LookupPrivilegeValueW(NULL, SE_SYSTEM_PROFILE_NAME), AdjustTokenPrivileges
 * with one SE_PRIVILEGE_ENABLED entry, then GetLastError: ERROR_NOT_ALL_ASSIGNED although the call returned TRUE
 * means the token does not hold the privilege (not elevated).
 *
 * <p>Stateless; thread-safe; every buffer lives in a confined arena of the call, the token handle is closed before
 * returning. Enabling a privilege is process-wide and idempotent; it is left enabled, as TraceEvent leaves it.
 */
final class ProfilePrivilege {
    private ProfilePrivilege() {
    }

    /** Whether {@code k} samples the CPU: the PROFILE flag, or a sampling interval to set. */
    static boolean needed(KernelTracing k) {
        return k != null && (k.flags().contains(KernelFlag.PROFILE) || k.samplingInterval100ns() != 0);
    }

    /**
     * Enables SeSystemProfilePrivilege in this process's token.
     *
     * @param session the session it is for, named in the error
     * @throws org.etw4j.EtwException naming OpenProcessToken, LookupPrivilegeValueW or AdjustTokenPrivileges with the
     *         last error (ERROR_NOT_ALL_ASSIGNED: the token lacks the privilege; run elevated)
     */
    static void enable(String session) {
        String subject = TokenFunctions.SE_SYSTEM_PROFILE_NAME + " for the CPU sampling of session '" + session + "'";
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(TokenFunctions.CALL_STATE);
            MemorySegment tokenOut = call.allocate(ValueLayout.ADDRESS);
            if (TokenFunctions.OpenProcessToken(state, TokenFunctions.GetCurrentProcess(),
                    TokenFunctions.TOKEN_ADJUST_PRIVILEGES | TokenFunctions.TOKEN_QUERY, tokenOut) == 0) {
                throw Win32Errors.failure("OpenProcessToken", TokenFunctions.lastError(state), subject);
            }
            MemorySegment token = tokenOut.get(ValueLayout.ADDRESS, 0);
            try {
                adjust(call, state, token, subject);
            } finally {
                TokenFunctions.CloseHandle(token);
            }
        }
    }

    private static void adjust(Arena call, MemorySegment state, MemorySegment token, String subject) {
        MemorySegment privileges = call.allocate(TokenFunctions.TOKEN_PRIVILEGES);
        long entry = TokenFunctions.TOKEN_PRIVILEGES.byteOffset(
                java.lang.foreign.MemoryLayout.PathElement.groupElement("Privileges"));
        MemorySegment luid = privileges.asSlice(entry, TokenFunctions.LUID.byteSize());
        MemorySegment name = call.allocateFrom(TokenFunctions.SE_SYSTEM_PROFILE_NAME + "\0",
                StandardCharsets.UTF_16LE);
        if (TokenFunctions.LookupPrivilegeValueW(state, MemorySegment.NULL, name, luid) == 0) {
            throw Win32Errors.failure("LookupPrivilegeValueW", TokenFunctions.lastError(state), subject);
        }
        privileges.set(ValueLayout.JAVA_INT, 0, 1); // PrivilegeCount
        privileges.set(ValueLayout.JAVA_INT, entry + TokenFunctions.LUID.byteSize(), TokenFunctions.SE_PRIVILEGE_ENABLED);
        int ok = TokenFunctions.AdjustTokenPrivileges(state, token, 0, privileges, 0, MemorySegment.NULL,
                MemorySegment.NULL);
        int lastError = TokenFunctions.lastError(state);
        // MS Learn, AdjustTokenPrivileges: success with ERROR_NOT_ALL_ASSIGNED means the token lacks the privilege.
        if (ok == 0 || lastError == TokenFunctions.ERROR_NOT_ALL_ASSIGNED) {
            throw Win32Errors.failure("AdjustTokenPrivileges", lastError, subject);
        }
    }
}
