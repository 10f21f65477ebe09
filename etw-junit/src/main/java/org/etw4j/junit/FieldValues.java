package org.etw4j.junit;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.StructValue;

/**
 * How an expected field value is compared with a decoded one, and written in messages. Stateless.
 *
 * <p>Exact, with one rule for numbers: the Java type a decoder gives a field follows its wire type (an INT32 is an
 * {@code Integer}, a UINT32 a zero-extended {@code Long}, a FLOAT a {@code Double}), so integral values are
 * compared by value whatever their boxes ({@code 7} equals a UINT32 7; {@code -1} does not equal a UINT32
 * 4294967295) and floating values by their exact double value (a float widens to double exactly; no tolerance).
 * Byte arrays compare by content; everything else with {@code equals}.
 */
final class FieldValues {
    /** Longer strings are cut in messages. */
    static final int MAX_STRING = 200;

    private FieldValues() {
    }

    static boolean matches(Object actual, Object expected) {
        if (isIntegral(actual) && isIntegral(expected)) {
            return integral(actual).equals(integral(expected));
        }
        if (isFloating(actual) && isFloating(expected)) {
            return Double.compare(((Number) actual).doubleValue(), ((Number) expected).doubleValue()) == 0;
        }
        if (actual instanceof byte[] a && expected instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(actual, expected);
    }

    private static boolean isIntegral(Object o) {
        return o instanceof Byte || o instanceof Short || o instanceof Integer || o instanceof Long || o instanceof BigInteger;
    }

    private static boolean isFloating(Object o) {
        return o instanceof Float || o instanceof Double;
    }

    private static BigInteger integral(Object o) {
        return o instanceof BigInteger b ? b : BigInteger.valueOf(((Number) o).longValue());
    }

    /**
     * A value as messages show it, on one line: strings quoted with line breaks escaped and cut after
     * {@link #MAX_STRING} characters (a stack trace would drown the listing), bytes in hex, structs as
     * {@code {name=value, ...}} and arrays as {@code [...]}, each member shown the same way.
     */
    static StringBuilder text(StringBuilder sb, Object v) {
        if (v == null) {
            return sb.append("null");
        }
        if (v instanceof String s) {
            String shown = s.length() > MAX_STRING ? s.substring(0, MAX_STRING) : s;
            sb.append('"').append(shown.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")).append('"');
            return s.length() > MAX_STRING ? sb.append("...(").append(s.length()).append(" chars)") : sb;
        }
        if (v instanceof byte[] b) {
            return sb.append("0x").append(HexFormat.of().formatHex(b));
        }
        if (v instanceof StructValue sv) {
            sb.append('{');
            for (int i = 0; i < sv.fields().size(); i++) {
                EventField f = sv.fields().get(i);
                text(sb.append(i == 0 ? "" : ", ").append(f.name()).append('='), f.value());
            }
            return sb.append('}');
        }
        if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                text(sb.append(i == 0 ? "" : ", "), list.get(i));
            }
            return sb.append(']');
        }
        return sb.append(v);
    }

    /** A value with its Java type, for "expected X but was Y" lines. */
    static String typed(Object v) {
        StringBuilder sb = text(new StringBuilder(), v);
        if (v != null && !(v instanceof String)) {
            sb.append(" (").append(v.getClass().getSimpleName()).append(')');
        }
        return sb.toString();
    }
}
