package org.etw4j.consumer.internal.decode;

import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A manifest {@code valueMap} (exact match) or {@code bitMap} (OR of matching masks) naming integer values.
 * Immutable value; thread-safe. Labels for bit maps join the names of the set masks in ascending mask
 * order with {@code |} and append the bits no mask names as {@code 0x...}; a zero value with no entry for 0
 * is labelled {@code 0}. This follows TDH's bit-map rendering as PerfView implements it
 * (etw-formats.md section 4.3 item 5).
 *
 * @param name    the map name templates refer to
 * @param bitMap  whether this is a bit map
 * @param entries value (or mask) to label, the label already resolved through the string table
 */
record ValueMap(String name, boolean bitMap, NavigableMap<Long, String> entries) {

    public ValueMap {
        Objects.requireNonNull(name, "name");
        entries = java.util.Collections.unmodifiableNavigableMap(new TreeMap<>(entries));
    }

    /** A map from (value, name) pairs: {@code of("Kind", false, 1, "One", 2, "Two")}; values are {@link Number}s. */
    static ValueMap of(String name, boolean bitMap, Object... valueNames) {
        TreeMap<Long, String> m = new TreeMap<>();
        for (int i = 0; i < valueNames.length; i += 2) {
            m.put(((Number) valueNames[i]).longValue(), (String) valueNames[i + 1]);
        }
        return new ValueMap(name, bitMap, m);
    }

    /**
     * The label for {@code value}: for a value map the entry or {@code null} when there is none; for a bit map
     * always a label (see the class comment).
     */
    public String label(long value) {
        if (!bitMap) {
            return entries.get(value);
        }
        String exact = entries.get(value);
        if (value == 0) {
            return exact != null ? exact : "0";
        }
        return appendBits(new StringBuilder(), value).toString();
    }

    /**
     * Appends {@link #label(long)} of a bit map to {@code sb} without making a String of it (views write labels
     * in place); for a value map appends the entry, or nothing when there is none.
     */
    public StringBuilder appendLabel(StringBuilder sb, long value) {
        if (!bitMap || value == 0) {
            String l = label(value);
            return l == null ? sb : sb.append(l);
        }
        return appendBits(sb, value);
    }

    /** The names of the set bits of non-zero {@code value}, joined by {@code |}, unnamed bits last as {@code 0x...}. */
    private StringBuilder appendBits(StringBuilder sb, long value) {
        int start = sb.length();
        long rest = value;
        for (Map.Entry<Long, String> e : entries.entrySet()) {
            long mask = e.getKey();
            if (mask != 0 && (rest & mask) == mask) {
                if (sb.length() > start) {
                    sb.append('|');
                }
                sb.append(e.getValue());
                rest &= ~mask;
            }
        }
        if (rest != 0) {
            if (sb.length() > start) {
                sb.append('|');
            }
            FieldText.appendHex(sb.append("0x"), rest);
        }
        return sb;
    }
}
