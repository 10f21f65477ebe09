package org.etw4j;

/**
 * The Win32 status codes ETW functions return, with their symbols and what a user can do about them.
 *
 * <p>Enum constants: immutable and thread-safe. {@link #of(int)} maps any code; codes not listed here map to
 * {@link #UNKNOWN} (the raw code is kept by whoever reports it). Event writes report these as {@code int}
 * statuses and never throw; controller operations throw {@link EtwException} carrying one.
 */
public enum Win32Error {
    ERROR_SUCCESS(0, "the operation completed successfully", ""),
    ERROR_FILE_NOT_FOUND(2, "the file was not found", "check the path"),
    ERROR_ACCESS_DENIED(5, "access denied",
            "run elevated (as Administrator) or add the account to the 'Performance Log Users' group"),
    ERROR_INVALID_HANDLE(6, "the handle is not valid", "the provider or session was closed; register or start it again"),
    ERROR_NOT_ENOUGH_MEMORY(8, "not enough buffers: events were dropped",
            "use larger or more buffers, a faster consumer, or fewer events (level/keyword filters)"),
    ERROR_BAD_LENGTH(24, "a length is wrong", "check structure sizes and buffer lengths"),
    ERROR_NOT_SUPPORTED(50, "the request is not supported", "this backend or Windows version does not support it"),
    ERROR_INVALID_PARAMETER(87, "a parameter is not valid", "check the arguments against the ETW limits"),
    ERROR_BAD_PATHNAME(161, "the path is not valid", "check the log file path"),
    ERROR_ALREADY_EXISTS(183, "a session with that name already exists",
            "choose another name, attach to it, or replace it (SessionConfig.ifExists)"),
    ERROR_MORE_DATA(234, "the event does not fit in one session buffer",
            "write smaller events or start the session with a larger buffer size"),
    ERROR_ARITHMETIC_OVERFLOW(534, "the event is larger than ETW's 64 KB limit", "split the event"),
    ERROR_CANCELLED(1223, "the operation was cancelled", ""),
    ERROR_NOT_FOUND(1168, "element not found", "check the name or id"),
    ERROR_NOT_ALL_ASSIGNED(1300, "not all privileges were assigned to the process token",
            "run elevated: SeSystemProfilePrivilege (CPU sampling and its interval, KernelFlag.PROFILE) is granted to"
                    + " Administrators and usable only from an elevated process (MS Learn, TraceSetInformation)"),
    ERROR_NO_SYSTEM_RESOURCES(1450, "too many sessions are running (the system limit is 64 by default)",
            "stop unused sessions (see Sessions.stopStale) or raise the limit in the registry"),
    ERROR_TIMEOUT(1460, "the operation timed out", "retry"),
    ERROR_WMI_INSTANCE_NOT_FOUND(4201, "no session with that name is running", "check the session name"),
    ERROR_CTX_CLOSE_PENDING(7007, "a close is pending", "wait for the session to stop"),
    STATUS_LOG_FILE_FULL(0xC0000188, "the real-time playback file is full",
            "attach a real-time consumer to drain the session"),
    UNKNOWN(-1, "unknown status", "see the Win32 error code reference");

    private final int code;
    private final String description;
    private final String advice;

    Win32Error(int code, String description, String advice) {
        this.code = code;
        this.description = description;
        this.advice = advice;
    }

    /** The numeric code. */
    public int code() {
        return code;
    }

    /** The symbol, e.g. {@code ERROR_ACCESS_DENIED}. */
    public String symbol() {
        return name();
    }

    /** What the code means. */
    public String description() {
        return description;
    }

    /** What to do about it, or an empty string. */
    public String advice() {
        return advice;
    }

    /** The constant for {@code code}, or {@link #UNKNOWN}. */
    public static Win32Error of(int code) {
        for (Win32Error e : values()) {
            if (e.code == code && e != UNKNOWN) {
                return e;
            }
        }
        return UNKNOWN;
    }

    /** {@code SYMBOL (code)} for a raw code, e.g. {@code ERROR_MORE_DATA (234)}. */
    public static String describe(int code) {
        Win32Error e = of(code);
        return (e == UNKNOWN ? "status" : e.name()) + " (" + (code < 0 ? String.format("0x%08X", code) : code) + ")";
    }
}
