package org.etw4j.consumer.output;

/** The forms {@link EventFormatter} writes events in (a closed set; one value rule each, see there). */
public enum EventFormat {
    /** One line per event: time, process, thread, CPU, level, provider/event, {@code name=value;} fields. */
    TEXT,
    /** One JSON object per line (JSON Lines). */
    JSONL,
    /** Comma-separated values with a header row (RFC 4180 quoting); the fields in one column, as the text form. */
    CSV
}
