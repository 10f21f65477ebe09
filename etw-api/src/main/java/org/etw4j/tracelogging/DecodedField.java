package org.etw4j.tracelogging;

/**
 * One decoded field of a TraceLogging event.
 *
 * <p>Immutable value (the {@code byte[]} values of binary fields are fresh copies owned by the record's holder;
 * lists are unmodifiable); thread-safe once published. Value types by {@link InType}, set by
 * {@link TraceLoggingSchema#decode}:
 * <ul>
 *   <li>INT8, UINT8, INT16, UINT16, INT32: {@link Integer} (unsigned types zero-extended);</li>
 *   <li>UINT32, HEXINT32: {@link Long} (zero-extended, so always the true value);</li>
 *   <li>INT64, UINT64, HEXINT64, POINTER: {@link Long} holding the 64 bits; UINT64 and HEXINT64 values above
 *       {@code Long.MAX_VALUE} are negative, read them with {@link Long#toUnsignedString(long)} or
 *       {@link Long#compareUnsigned};</li>
 *   <li>FLOAT: {@link Float}; DOUBLE: {@link Double}; BOOL32: {@link Boolean} (any non-zero value is true);</li>
 *   <li>all string types: {@link String}; 8-bit strings are UTF-8 when the OutType is UTF8, XML or JSON,
 *       windows-1252 otherwise;</li>
 *   <li>GUID: {@link org.etw4j.Guid}; FILETIME: {@link java.time.Instant}; SYSTEMTIME: {@link java.time.Instant}
 *       (UTC), or the raw 16 bytes as {@code byte[]} when they do not form a valid date (e.g. all zero);</li>
 *   <li>BINARY, COUNTEDBINARY: {@code byte[]}; SID: {@link String} in {@code S-1-5-21-...} form;</li>
 *   <li>NULL: {@code null};</li>
 *   <li>STRUCT: {@code List<DecodedField>} of its members, in order;</li>
 *   <li>arrays: {@code List} of the element values above (struct arrays: {@code List<List<DecodedField>>}),
 *       except arrays of INT8/UINT8/INT16/UINT16 with OutType STRING, which are {@link String}: 8-bit units as
 *       windows-1252 characters, 16-bit units as UTF-16 (how the AMSI "Raw Script" field is meant to be read,
 *       etw-formats.md 1.9(c)).</li>
 * </ul>
 *
 * @param name    field name
 * @param inType  wire type
 * @param outType format hint ({@link OutType#DEFAULT} when absent or unknown)
 * @param value   the value, typed as listed above
 */
public record DecodedField(String name, InType inType, OutType outType, Object value) {
}
