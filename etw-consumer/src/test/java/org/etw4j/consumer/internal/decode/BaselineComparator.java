package org.etw4j.consumer.internal.decode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;

/**
 * Compares one decoded field value with the text TraceEvent printed for it in a baseline.
 *
 * <p>Stateless. Normalization rules (each one is how {@code GeneralParsing.Parse} and
 * {@code TraceEvent.PayloadString} print a value; microsoft/perfview f3ec1b38):
 * <ol>
 *   <li>Truncation: a printed value longer than 20 characters was cut to 20 and suffixed {@code ...}; such a
 *       value matches when our rendering starts with those 20 characters (for integers: our signed
 *       {@code n0} text, rule 2).</li>
 *   <li>Integers are printed with {@code ToString("n0")} (thousands separators, en-US). A printed integer
 *       matches only when it equals our value exactly, read with the sign the schema gives the field (signed
 *       in-types sign-extended, unsigned ones zero-extended to their width). TraceEvent's dynamic parser reads
 *       TDH UInt32/HexInt32 as .NET {@code int} and UInt64/HexInt64 as {@code long} (DynamicTraceEventParser.cs,
 *       {@code case TdhInputType.UInt64: Type = typeof(long)}), so a schema-unsigned value with its top bit set
 *       prints negative there: {@link #SIGN_ONLY} reports such a difference, and the test accepts it only for
 *       fields it lists by name with the evidence.</li>
 *   <li>Addresses print as {@code 0x} + hex ({@code x8}, at least 8 digits): the hex digits are the value's
 *       bits, compared exactly with our value zero-extended to its width.</li>
 *   <li>Doubles print with {@code n3}: ours is rounded half-away-from-zero to 3 decimals.</li>
 *   <li>Dates print as {@code ToUniversalTime().ToString("yy/MM/dd HH:mm:ss.ffffff")} (so UTC, whatever the
 *       trace's UtcOffsetMinutes), then truncated by rule 1.</li>
 *   <li>Booleans print {@code True}/{@code False}; GUIDs in lower-case canonical form; byte arrays as the hex
 *       of their first 16 bytes (then {@code ...}), compared case-insensitively; arrays as
 *       {@code [a,b,...]}.</li>
 *   <li>Value maps: TraceEvent prints the enum name. When the baseline shows a name, it must equal our map
 *       label, with our bit-map separator {@code |} read as .NET's flags separator {@code ", "}; a .NET flags
 *       enum prints 0 as {@code None}, which matches a value of 0. When the baseline shows a number (a .NET
 *       enum value with no member name, or no enum), our raw value is compared as a number.</li>
 *   <li>Newlines inside strings print as {@code \n} / {@code \r}.</li>
 * </ol>
 */
final class BaselineComparator {
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yy/MM/dd HH:mm:ss.SSSSSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final int TRUNCATE = 20;

    /** Prefix of {@link #compare}'s answer when the values differ only in the sign TraceEvent read them with. */
    static final String SIGN_ONLY = "sign only: ";

    private BaselineComparator() {
    }

    /** Why a value differs, or {@code null} when it matches. */
    static String compare(EventField f, String printed, int pointerSize) {
        if (f.error() != null) {
            return "our field failed: " + f.error();
        }
        boolean truncated = printed.length() == TRUNCATE + 3 && printed.endsWith("...");
        String expected = truncated ? printed.substring(0, TRUNCATE) : printed;
        Object v = f.value();
        if (v instanceof Integer || v instanceof Long) {
            return compareInteger(f, ((Number) v).longValue(), expected, truncated, pointerSize);
        }
        if (v instanceof Double d) {
            BigDecimal ours = BigDecimal.valueOf(d).setScale(3, java.math.RoundingMode.HALF_UP);
            try {
                BigDecimal theirs = new BigDecimal(expected.replace(",", ""));
                return ours.compareTo(theirs) == 0 ? null : "double " + ours + " vs " + theirs;
            } catch (NumberFormatException e) {
                return "not a number in baseline: " + printed;
            }
        }
        String ours = render(v);
        if (ours == null) {
            return "value of type " + (v == null ? "null" : v.getClass().getSimpleName()) + " not comparable";
        }
        ours = ours.replace("\n", "\\n").replace("\r", "\\r");
        boolean caseless = v instanceof byte[];
        String o = caseless ? ours.toLowerCase(Locale.ROOT) : ours;
        String e = caseless ? expected.toLowerCase(Locale.ROOT) : expected;
        if (truncated ? o.length() > TRUNCATE && o.startsWith(e) : o.equals(e)) {
            return null;
        }
        return "'" + ours + "' vs '" + printed + "'";
    }

    private static String compareInteger(EventField f, long value, String expected, boolean truncated,
                                         int pointerSize) {
        int width = width(f.inType(), pointerSize);
        BigInteger ours = withSchemaSign(f.inType(), value, width);
        BigInteger printedNumber = parseNumber(expected);
        if (printedNumber != null && !truncated) {
            if (printedNumber.equals(ours)) {
                return null;
            }
            BigInteger mod = BigInteger.ONE.shiftLeft(width);
            String why = "number " + ours + " (" + f.inType() + ", 0x" + ours.mod(mod).toString(16) + ") vs "
                    + expected;
            return printedNumber.mod(mod).equals(ours.mod(mod)) ? SIGN_ONLY + why : why;
        }
        if (truncated && expected.matches("-?[0-9]{1,3}(,[0-9]{0,3})*")) {
            // rule 1 on rule 2: a long number cut to 20 characters; compare our n0 text's prefix
            String n0 = String.format(Locale.ROOT, "%,d", ours);
            if (n0.length() > TRUNCATE && n0.startsWith(expected)) {
                return null;
            }
            BigInteger mod = BigInteger.ONE.shiftLeft(width);
            BigInteger flipped = ours.signum() >= 0 && ours.testBit(width - 1) ? ours.subtract(mod) : ours.add(mod);
            String other = String.format(Locale.ROOT, "%,d", flipped);
            String why = "number " + n0 + " (" + f.inType() + ") vs '" + expected + "...'";
            return other.length() > TRUNCATE && other.startsWith(expected) ? SIGN_ONLY + why : why;
        }
        if (f.label() != null) {
            // TraceEvent's CLR parser prints .NET [Flags] enums ("A, B"); its manifest parser joins with '|'.
            for (String label : List.of(f.label(), f.label().replace("|", ", "))) {
                if (truncated ? label.length() > TRUNCATE && label.startsWith(expected) : label.equals(expected)) {
                    return null;
                }
            }
            if (expected.equals("None") && value == 0) {
                return null;
            }
            return "label '" + f.label() + "' (value " + value + ") vs '" + expected + (truncated ? "...'" : "'");
        }
        if (expected.equals("None") && value == 0 && f.inType().isInteger()) {
            return null;
        }
        return "value " + value + " has no name here; TraceEvent printed '" + expected + (truncated ? "...'" : "'");
    }

    /**
     * The value as the schema's in-type reads it: unsigned types (and pointers) zero-extended from their width,
     * signed ones (INT8..INT64) sign-extended; every other integer type (hex, pointer, size, char, boolean) is
     * unsigned.
     */
    static BigInteger withSchemaSign(InType t, long value, int width) {
        BigInteger mod = BigInteger.ONE.shiftLeft(width);
        BigInteger unsigned = BigInteger.valueOf(value).mod(mod);
        boolean signed = t == InType.INT8 || t == InType.INT16 || t == InType.INT32 || t == InType.INT64;
        return signed && unsigned.testBit(width - 1) ? unsigned.subtract(mod) : unsigned;
    }

    /** Decimal with separators or 0x-hex; null when the text is not a number. */
    static BigInteger parseNumber(String s) {
        if (s.startsWith("0x") && s.length() > 2 && s.substring(2).matches("[0-9a-fA-F]+")) {
            return new BigInteger(s.substring(2), 16);
        }
        if (s.matches("-?[0-9]{1,3}(,[0-9]{3})*") || s.matches("-?[0-9]+")) {
            return new BigInteger(s.replace(",", ""));
        }
        return null;
    }

    static int width(InType t, int pointerSize) {
        return switch (t) {
            case INT8, UINT8, ANSI_CHAR -> 8;
            case INT16, UINT16, UNICODE_CHAR -> 16;
            case INT32, UINT32, HEXINT32, BOOLEAN -> 32;
            case POINTER, SIZET -> pointerSize * 8;
            default -> 64;
        };
    }

    /** TraceEvent's rendering of non-integer values (rule 5 and 6). */
    static String render(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (v instanceof Guid g) {
            return g.toString();
        }
        if (v instanceof Instant i) {
            return DATE.format(i);
        }
        if (v instanceof byte[] b) {
            String hex = HexFormat.of().formatHex(b, 0, Math.min(16, b.length));
            return b.length > 16 ? hex + "..." : hex;
        }
        if (v instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : l) {
                if (sb.length() > 1) {
                    sb.append(',');
                }
                sb.append(o instanceof Number n ? n.toString() : render(o));
            }
            return sb.append(']').toString();
        }
        return null;
    }

    /** For reports: a map rendered compactly. */
    static String brief(Map<String, String> m) {
        return m.toString();
    }
}
