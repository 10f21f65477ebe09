package org.etw4j.jfr;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What the JFR-to-ETW bridge records: the provider name and one {@link JfrEventSetting} per JFR event.
 *
 * <p>Immutable; thread-safe. Built with {@link #builder()} (starting from {@link #defaults()}) or parsed from
 * agent arguments and system properties ({@link #parse(String, Properties)}). The text form is a comma-separated
 * list of {@code key=value} (a value lists several names with {@code ;}):
 * <pre>
 * provider=Java-Runtime                       ETW provider name (GUID derived from it, EventSource hash)
 * events=+jdk.ClassLoad;-jdk.CPULoad;my.Event  enable (+ or no sign) or disable (-) events; unknown names: OTHER
 * only=jdk.GarbageCollection;jdk.ThreadStart  exactly these events (others of the defaults off)
 * threshold.jdk.JavaMonitorEnter=5ms         JFR threshold (ns, us, ms, s, m, h; 0 = all)
 * period.jdk.CPULoad=500ms                   JFR period of a periodic event
 * throttle.jdk.ObjectAllocationSample=50/s   JFR throttle
 * stackTrace=jdk.JavaMonitorEnter;jdk.ThreadPark  write these events' stack traces (field stackTrace)
 * </pre>
 * System properties {@code etw4j.jfr.<key>} (for example {@code -Detw4j.jfr.events=+jdk.ClassLoad}) are applied
 * first, then the agent arguments.
 */
public final class JfrToEtwConfig {

    /** The default provider name. */
    public static final String DEFAULT_PROVIDER = "Java-Runtime";
    /** Prefix of the system properties {@link #parse(String, Properties)} reads. */
    public static final String PROPERTY_PREFIX = "etw4j.jfr.";

    private final String providerName;
    private final Map<String, JfrEventSetting> events;

    private JfrToEtwConfig(String providerName, Map<String, JfrEventSetting> events) {
        this.providerName = providerName;
        this.events = Collections.unmodifiableMap(new LinkedHashMap<>(events));
    }

    /** The default set (README "JFR to ETW"): thresholds as JDK's profile.jfc/default.jfc choose them. */
    public static JfrToEtwConfig defaults() {
        return builder().build();
    }

    /** A builder holding the default set. */
    public static Builder builder() {
        return new Builder();
    }

    /** Parses agent arguments (may be null or empty) after the {@code etw4j.jfr.*} properties of {@code props}. */
    public static JfrToEtwConfig parse(String agentArgs, Properties props) {
        Builder b = builder();
        if (props != null) {
            for (String key : props.stringPropertyNames()) {
                if (key.startsWith(PROPERTY_PREFIX)) {
                    b.apply(key.substring(PROPERTY_PREFIX.length()), props.getProperty(key));
                }
            }
        }
        if (agentArgs != null && !agentArgs.isBlank()) {
            for (String part : agentArgs.split(",")) {
                String p = part.trim();
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("etw-jfr: expected key=value, got '" + p + "'");
                }
                b.apply(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
            }
        }
        return b.build();
    }

    public String providerName() {
        return providerName;
    }

    /** Every configured event by JFR name, enabled or not, in a stable order. */
    public Map<String, JfrEventSetting> events() {
        return events;
    }

    /** The setting of one JFR event, or null. */
    public JfrEventSetting event(String name) {
        return events.get(name);
    }

    @Override
    public String toString() {
        return "JfrToEtwConfig[provider=" + providerName + ", events=" + events.values() + "]";
    }

    /** Parses {@code 20ms}, {@code 1s}, {@code 500us}, {@code 10ns}, {@code 2m}, {@code 1h}, {@code 0}. */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("etw-jfr: not a duration: '" + text + "'");
        }
        long n = Long.parseLong(t.substring(0, i));
        String unit = t.substring(i).trim();
        switch (unit) {
            case "ns": return Duration.ofNanos(n);
            case "us": return Duration.ofNanos(Math.multiplyExact(n, 1000L));
            case "ms": return Duration.ofMillis(n);
            case "s": return Duration.ofSeconds(n);
            case "m": return Duration.ofMinutes(n);
            case "h": return Duration.ofHours(n);
            case "":
                if (n == 0) {
                    return Duration.ZERO;
                }
                // fall through: a bare non-zero number has no unit
            default:
                throw new IllegalArgumentException("etw-jfr: duration needs a unit (ns, us, ms, s, m, h): '" + text + "'");
        }
    }

    /**
     * Builds a {@link JfrToEtwConfig}. Not thread-safe; start from the default set.
     */
    public static final class Builder {
        private String providerName = DEFAULT_PROVIDER;
        private final Map<String, JfrEventSetting> events = new LinkedHashMap<>();

        private Builder() {
            put(JfrEventSetting.of("jdk.GarbageCollection", Category.GC));
            put(JfrEventSetting.of("jdk.GCPhasePause", Category.GC));
            put(JfrEventSetting.of("jdk.SafepointBegin", Category.SAFEPOINT).withThreshold(Duration.ofMillis(1)));
            put(JfrEventSetting.of("jdk.SafepointStateSynchronization", Category.SAFEPOINT)
                    .withThreshold(Duration.ofMillis(1)).withEnabled(false));
            put(JfrEventSetting.of("jdk.ExecuteVMOperation", Category.SAFEPOINT).withThreshold(Duration.ofMillis(10)));
            put(JfrEventSetting.of("jdk.Compilation", Category.COMPILATION).withThreshold(Duration.ofMillis(100)));
            put(JfrEventSetting.of("jdk.ClassLoad", Category.CLASS_LOADING).withEnabled(false));
            put(JfrEventSetting.of("jdk.ThreadStart", Category.THREADS));
            put(JfrEventSetting.of("jdk.ThreadEnd", Category.THREADS));
            put(JfrEventSetting.of("jdk.JavaMonitorEnter", Category.CONTENTION).withThreshold(Duration.ofMillis(20)));
            put(JfrEventSetting.of("jdk.ThreadPark", Category.CONTENTION).withThreshold(Duration.ofMillis(20)));
            put(JfrEventSetting.of("jdk.ObjectAllocationSample", Category.ALLOCATION).withThrottle("150/s"));
            put(JfrEventSetting.of("jdk.CPULoad", Category.CPU).withPeriod(Duration.ofSeconds(1)));
        }

        private void put(JfrEventSetting s) {
            events.put(s.name(), s);
        }

        private JfrEventSetting setting(String name) {
            return events.computeIfAbsent(name, n -> JfrEventSetting.of(n, Category.OTHER).withEnabled(false));
        }

        public Builder providerName(String name) {
            this.providerName = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Turns an event on (an unknown name joins {@link Category#OTHER}). */
        public Builder enable(String jfrEvent) {
            put(setting(jfrEvent).withEnabled(true));
            return this;
        }

        public Builder disable(String jfrEvent) {
            put(setting(jfrEvent).withEnabled(false));
            return this;
        }

        /** Turns every event off except those named. */
        public Builder only(String... jfrEvents) {
            for (String n : events.keySet().toArray(new String[0])) {
                disable(n);
            }
            for (String n : jfrEvents) {
                enable(n);
            }
            return this;
        }

        public Builder threshold(String jfrEvent, Duration threshold) {
            put(setting(jfrEvent).withThreshold(threshold));
            return this;
        }

        public Builder period(String jfrEvent, Duration period) {
            put(setting(jfrEvent).withPeriod(period));
            return this;
        }

        public Builder throttle(String jfrEvent, String throttle) {
            put(setting(jfrEvent).withThrottle(throttle));
            return this;
        }

        public Builder stackTrace(String jfrEvent, boolean on) {
            put(setting(jfrEvent).withStackTrace(on));
            return this;
        }

        /** Applies one {@code key=value} of the text form (see {@link JfrToEtwConfig}). */
        public Builder apply(String key, String value) {
            if (key.equals("provider")) {
                return providerName(value);
            }
            if (key.equals("events")) {
                for (String n : names(value)) {
                    if (n.startsWith("-")) {
                        disable(n.substring(1));
                    } else {
                        enable(n.startsWith("+") ? n.substring(1) : n);
                    }
                }
                return this;
            }
            if (key.equals("only")) {
                return only(names(value));
            }
            if (key.equals("stackTrace")) {
                for (String n : names(value)) {
                    stackTrace(n, true);
                }
                return this;
            }
            int dot = key.indexOf('.');
            if (dot > 0) {
                String what = key.substring(0, dot);
                String event = key.substring(dot + 1);
                switch (what) {
                    case "threshold": return threshold(event, parseDuration(value));
                    case "period": return period(event, parseDuration(value));
                    case "throttle": return throttle(event, value);
                    case "stackTrace": return stackTrace(event, Boolean.parseBoolean(value));
                    default: break;
                }
            }
            throw new IllegalArgumentException("etw-jfr: unknown option '" + key + "' (provider, events, only, "
                    + "stackTrace, threshold.<event>, period.<event>, throttle.<event>, stackTrace.<event>)");
        }

        private static String[] names(String value) {
            return java.util.Arrays.stream(value.split(";")).map(String::trim).filter(s -> !s.isEmpty())
                    .toArray(String[]::new);
        }

        public JfrToEtwConfig build() {
            return new JfrToEtwConfig(providerName, events);
        }
    }
}
