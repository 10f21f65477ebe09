package org.etw4j.nativebindings.windows;

import org.etw4j.EtwException;
import org.etw4j.Win32Error;

/**
 * Turns the Win32 status of an ETW function into an {@link EtwException} naming the function, the code and its
 * symbol, with advice ({@link Win32Error} holds the advice for the codes ETW returns: ERROR_ACCESS_DENIED says to
 * run elevated or join Performance Log Users, ERROR_ALREADY_EXISTS points at {@code SessionConfig.ifExists},
 * ERROR_NO_SYSTEM_RESOURCES at {@code Sessions.stopStale}...).
 *
 * <p>Stateless; thread-safe.
 */
final class Win32Errors {
    static final int ERROR_SUCCESS = 0;
    static final int ERROR_INVALID_HANDLE = Win32Error.ERROR_INVALID_HANDLE.code();
    static final int ERROR_NOT_ENOUGH_MEMORY = Win32Error.ERROR_NOT_ENOUGH_MEMORY.code();
    static final int ERROR_NOT_SUPPORTED = Win32Error.ERROR_NOT_SUPPORTED.code();
    static final int ERROR_INVALID_PARAMETER = Win32Error.ERROR_INVALID_PARAMETER.code();
    static final int ERROR_INSUFFICIENT_BUFFER = 122;
    static final int ERROR_NOT_FOUND = Win32Error.ERROR_NOT_FOUND.code();
    static final int ERROR_ALREADY_EXISTS = Win32Error.ERROR_ALREADY_EXISTS.code();
    static final int ERROR_MORE_DATA = Win32Error.ERROR_MORE_DATA.code();
    static final int ERROR_ARITHMETIC_OVERFLOW = Win32Error.ERROR_ARITHMETIC_OVERFLOW.code();
    static final int ERROR_CANCELLED = Win32Error.ERROR_CANCELLED.code();
    static final int ERROR_WMI_INSTANCE_NOT_FOUND = Win32Error.ERROR_WMI_INSTANCE_NOT_FOUND.code();
    static final int ERROR_TIMEOUT = Win32Error.ERROR_TIMEOUT.code();
    static final int ERROR_CTX_CLOSE_PENDING = Win32Error.ERROR_CTX_CLOSE_PENDING.code();

    private Win32Errors() {
    }

    /** The exception for {@code function} failing with {@code status}; {@code subject} says on what. */
    static EtwException failure(String function, int status, String subject) {
        return new EtwException(function, status, subject);
    }

    /** Throws {@link #failure} unless {@code status} is ERROR_SUCCESS. */
    static void check(String function, int status, String subject) {
        if (status != ERROR_SUCCESS) {
            throw failure(function, status, subject);
        }
    }
}
