package org.etw4j.jfr;

import java.time.Duration;
import java.util.Objects;

/**
 * How one JFR event type is recorded and re-emitted: whether it is on, its JFR threshold, period and throttle,
 * and whether its stack trace is written as a string field.
 *
 * <p>Immutable record; thread-safe.
 *
 * @param name       the JFR event name, for example {@code jdk.GarbageCollection}
 * @param category   the ETW keyword group its events are written with
 * @param enabled    whether the agent records it (when a session enables its keyword)
 * @param threshold  JFR threshold (events shorter than this are not recorded), or null for JFR's own setting
 * @param period     JFR period of a periodic event ({@code jdk.CPULoad}), or null for JFR's own setting
 * @param throttle   JFR throttle (for example {@code 150/s}, {@code jdk.ObjectAllocationSample}), or null
 * @param stackTrace whether JFR captures the stack trace and the ETW event carries it as field {@code stackTrace}
 */
public record JfrEventSetting(String name, Category category, boolean enabled, Duration threshold, Duration period,
                              String throttle, boolean stackTrace) {
    public JfrEventSetting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(category, "category");
        if (name.isBlank()) {
            throw new IllegalArgumentException("empty JFR event name");
        }
    }

    /** An enabled event with no threshold, period or throttle of its own and no stack trace. */
    public static JfrEventSetting of(String name, Category category) {
        return new JfrEventSetting(name, category, true, null, null, null, false);
    }

    public JfrEventSetting withEnabled(boolean on) {
        return new JfrEventSetting(name, category, on, threshold, period, throttle, stackTrace);
    }

    public JfrEventSetting withThreshold(Duration d) {
        return new JfrEventSetting(name, category, enabled, d, period, throttle, stackTrace);
    }

    public JfrEventSetting withPeriod(Duration d) {
        return new JfrEventSetting(name, category, enabled, threshold, d, throttle, stackTrace);
    }

    public JfrEventSetting withThrottle(String t) {
        return new JfrEventSetting(name, category, enabled, threshold, period, t, stackTrace);
    }

    public JfrEventSetting withStackTrace(boolean on) {
        return new JfrEventSetting(name, category, enabled, threshold, period, throttle, on);
    }
}
