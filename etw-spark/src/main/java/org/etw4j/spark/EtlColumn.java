package org.etw4j.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The columns of the {@code etl} data source, in schema order.
 *
 * <p>Enum constants: immutable, thread-safe. Unsigned 32-bit header values (pid, tid) are {@code bigint} so that
 * {@code 0xFFFFFFFF} reads 4294967295, as Windows tools print it; the 64-bit keyword is {@code bigint} with its bits
 * as written (a keyword with the top bit set is negative; {@code hex(keyword)} shows it). {@code timestamp} is
 * Spark's microsecond timestamp (rounded down); {@code filetime} keeps the full 100-ns value (FILETIME, 100-ns
 * ticks since 1601-01-01 UTC). The {@link #decoded()} columns need the event decoder; the others come from the
 * record header alone.
 */
public enum EtlColumn {
    FILE("file", DataTypes.StringType, false),
    TIMESTAMP("timestamp", DataTypes.TimestampType, false),
    FILETIME("filetime", DataTypes.LongType, false),
    PROVIDER_ID("provider_id", DataTypes.StringType, false),
    PROVIDER_NAME("provider_name", DataTypes.StringType, true),
    EVENT_ID("event_id", DataTypes.IntegerType, false),
    VERSION("version", DataTypes.IntegerType, false),
    OPCODE("opcode", DataTypes.IntegerType, false),
    LEVEL("level", DataTypes.IntegerType, false),
    TASK("task", DataTypes.IntegerType, false),
    KEYWORD("keyword", DataTypes.LongType, false),
    EVENT_NAME("event_name", DataTypes.StringType, true),
    PID("pid", DataTypes.LongType, false),
    TID("tid", DataTypes.LongType, false),
    PROCESSOR("processor", DataTypes.IntegerType, false),
    ACTIVITY_ID("activity_id", DataTypes.StringType, false),
    RELATED_ACTIVITY_ID("related_activity_id", DataTypes.StringType, false),
    HEADER_KIND("header_kind", DataTypes.StringType, false),
    /** The decoded fields by name, values as text (labels, drive-letter paths); repeated names get {@code #2}... */
    FIELDS("fields", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, true), true),
    /** The decoded event as one JSON object (EventFormatter.json: typed values, order kept). */
    FIELDS_JSON("fields_json", DataTypes.StringType, true),
    /** Where the record lies: buffer index and offset in it (stable keys; the split reader's unit). */
    BUFFER_INDEX("buffer_index", DataTypes.LongType, false),
    RECORD_OFFSET("record_offset", DataTypes.IntegerType, false),
    /** The undecoded user data; only with option {@code payload=true}. */
    PAYLOAD("payload", DataTypes.BinaryType, false),
    /** Errors of PERMISSIVE mode; named by option {@code columnNameOfCorruptRecord}. */
    CORRUPT_RECORD("_corrupt_record", DataTypes.StringType, false);

    private final String defaultName;
    private final DataType type;
    private final boolean decoded;

    EtlColumn(String defaultName, DataType type, boolean decoded) {
        this.defaultName = defaultName;
        this.type = type;
        this.decoded = decoded;
    }

    /** The column's name (the corrupt-record column's can be changed by an option). */
    public String defaultName() {
        return defaultName;
    }

    /** The Spark type. */
    public DataType type() {
        return type;
    }

    /** Whether filling it needs the event decoder. */
    public boolean decoded() {
        return decoded;
    }
}
