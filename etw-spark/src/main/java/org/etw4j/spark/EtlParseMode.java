package org.etw4j.spark;

import java.util.Locale;

/**
 * What the {@code etl} source does with a file it cannot read or with malformed buffers and records, named and
 * behaving as Spark's CSV and JSON sources' {@code mode} option (Spark SQL data source guide, "mode").
 *
 * <p>Enum constants: immutable, thread-safe.
 */
public enum EtlParseMode {
    /**
     * The default: a problem becomes a row whose corrupt-record column ({@code _corrupt_record} by default) holds
     * what the reader said (kind, file offset, buffer, message) and whose record columns are null, {@code file}
     * and {@code buffer_index} excepted; the file's readable records are all returned.
     */
    PERMISSIVE,
    /** Problem rows are left out; each partition logs its count of them once (java.util.logging WARNING, logger org.etw4j.spark). */
    DROPMALFORMED,
    /** The first problem fails the task (and so the job) with the reader's message. */
    FAILFAST;

    /** Parses the option value (case-insensitive); null means {@link #PERMISSIVE}. */
    public static EtlParseMode of(String value) {
        if (value == null || value.isBlank()) {
            return PERMISSIVE;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option mode: '" + value
                    + "' is not one of PERMISSIVE, DROPMALFORMED, FAILFAST", e);
        }
    }
}
