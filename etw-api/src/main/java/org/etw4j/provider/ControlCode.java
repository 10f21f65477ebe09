package org.etw4j.provider;

/**
 * The {@code IsEnabled} value of an enable notification ({@code EVENT_CONTROL_CODE_*}, MS Learn, PENABLECALLBACK callback function).
 *
 * <p>Enum constants: immutable, thread-safe. A provider must ignore values it does not know (MS Learn, PENABLECALLBACK callback function):
 * {@link #of(int)} returns {@code null} for them and the provider drops such notifications.
 */
public enum ControlCode {
    /** 0: no session enables the provider any more. */
    DISABLE_PROVIDER(0),
    /** 1: one or more sessions enable the provider. */
    ENABLE_PROVIDER(1),
    /** 2: a session asks the provider to log its state; the enable state does not change. */
    CAPTURE_STATE(2);

    private final int value;

    ControlCode(int value) {
        this.value = value;
    }

    /** The native value. */
    public int value() {
        return value;
    }

    /** The control code for a native value, or {@code null} when unknown (to be ignored). */
    public static ControlCode of(int value) {
        switch (value) {
            case 0:
                return DISABLE_PROVIDER;
            case 1:
                return ENABLE_PROVIDER;
            case 2:
                return CAPTURE_STATE;
            default:
                return null;
        }
    }
}
