package org.etw4j.controller;

import java.util.Objects;

/**
 * A {@link SessionConfig} that breaks one of ETW's documented rules for {@code EVENT_TRACE_PROPERTIES}: thrown when
 * the configuration is built, before anything reaches Windows, with the rule it breaks.
 *
 * <p>Immutable; thread-safe. {@link #rule()} names the rule; the message says the rule, its source and what was
 * asked for.
 */
public final class SessionConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * The rules checked. Sources: MS Learn, "Logging Mode Constants" (LMC), "EVENT_TRACE_PROPERTIES structure"
     * (ETP), "Configuring and Starting a Private Logger Session" (PLS).
     *
     * <p>Enum constants: immutable, thread-safe.
     */
    public enum Rule {
        /** A file mode or a maximum file size was given for a session without a log file. */
        FILE_SETTINGS_WITHOUT_FILE("a file mode other than SEQUENTIAL, or a maximum file size, needs a log file"),
        /** MaximumFileSize is negative. */
        MAXIMUM_FILE_SIZE_NEGATIVE("MaximumFileSize is a count of megabytes (ETP: a ULONG)"),
        /** CIRCULAR or NEW_FILE without MaximumFileSize. */
        MAXIMUM_FILE_SIZE_REQUIRED("MaximumFileSize \"must be specified if LogFileMode contains"
                + " EVENT_TRACE_FILE_MODE_PREALLOCATE, EVENT_TRACE_FILE_MODE_CIRCULAR or EVENT_TRACE_FILE_MODE_NEWFILE\""
                + " (ETP)"),
        /** The file cannot hold the header buffer and one buffer of events. */
        MAXIMUM_FILE_SIZE_BELOW_TWO_BUFFERS("the maximum file size must hold the header buffer and at least one"
                + " buffer of events"),
        /** NEW_FILE with a file name that has no (or more than one) {@code %d}. */
        NEW_FILE_NEEDS_PERCENT_D("with EVENT_TRACE_FILE_MODE_NEWFILE \"the specified file name must be a formatted"
                + " string (for example, the string contains a %d, such as c:\\test%d.etl)\" (LMC); etw4j asks for"
                + " exactly one %d"),
        /** APPEND with real-time delivery. */
        APPEND_NOT_REAL_TIME("EVENT_TRACE_FILE_MODE_APPEND: \"Do not use with EVENT_TRACE_REAL_TIME_MODE\" (LMC)"),
        /** APPEND with a clock other than system time. */
        APPEND_NEEDS_SYSTEM_TIME("EVENT_TRACE_FILE_MODE_APPEND: \"Use only if you specify system time for the clock"
                + " resolution, otherwise, ProcessTrace will return events with incorrect time stamps\" (LMC)"),
        /** APPEND in a private session. */
        APPEND_NOT_PRIVATE("EVENT_TRACE_FILE_MODE_APPEND: \"Do not use with ... EVENT_TRACE_PRIVATE_LOGGER_MODE\" (LMC)"),
        /** NEW_FILE in a private session. */
        NEW_FILE_NOT_PRIVATE("EVENT_TRACE_FILE_MODE_NEWFILE: \"This option is not allowed for private event tracing"
                + " sessions\" (LMC)"),
        /** A private session with real-time delivery or without a log file. */
        PRIVATE_NEEDS_FILE("a private in-process session writes a log file and has no real-time consumers (PLS;"
                + " MS-PLA 2.2.9: \"Private sessions cannot be used\" in real-time mode)");

        private final String text;

        Rule(String text) {
            this.text = text;
        }

        /** The rule and its source, in words. */
        public String text() {
            return text;
        }
    }

    private final Rule rule;

    /** A configuration that breaks {@code rule}; {@code detail} says what was asked for. */
    public SessionConfigException(Rule rule, String detail) {
        super("SessionConfig breaks rule " + Objects.requireNonNull(rule, "rule") + ": " + rule.text() + "; got " + detail);
        this.rule = rule;
    }

    /** The rule broken. */
    public Rule rule() {
        return rule;
    }
}
