package org.etw4j.controller;

import java.util.Objects;

/**
 * One condition of a payload filter ({@code PAYLOAD_FILTER_PREDICATE}: field name, comparison, value).
 *
 * <p>Immutable record; thread-safe. Values are compared numerically when both the field and {@code value}
 * parse as numbers, otherwise as strings (case-insensitive for {@link Op#CONTAINS}/{@link Op#DOES_NOT_CONTAIN}).
 * {@link Op#BETWEEN}/{@link Op#NOT_BETWEEN} take {@code "low,high"}; {@link Op#MODULO} takes {@code "divisor"}
 * and holds when the field is a multiple of it.
 *
 * @param field field name
 * @param op    comparison
 * @param value value text, as TDH takes it
 */
public record PayloadPredicate(String field, Op op, String value) {

    /** {@code PAYLOADFIELD_*} comparisons (evntprov.h numbering). */
    public enum Op {
        EQ(0), NE(1), LE(2), GT(3), LT(4), GE(5), BETWEEN(6), NOT_BETWEEN(7), MODULO(8),
        CONTAINS(20), DOES_NOT_CONTAIN(21), IS(30), IS_NOT(31);

        private final int code;

        Op(int code) {
            this.code = code;
        }

        /** The {@code PAYLOADFIELD_*} value. */
        public int code() {
            return code;
        }
    }

    public PayloadPredicate {
        if (field == null || field.isEmpty()) {
            throw new IllegalArgumentException("PayloadPredicate.field must not be empty");
        }
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(value, "value");
        if ((op == Op.BETWEEN || op == Op.NOT_BETWEEN) && value.split(",").length != 2) {
            throw new IllegalArgumentException("PayloadPredicate " + op + " needs \"low,high\", got '" + value + "'");
        }
    }

    /** Whether a decoded field value satisfies this predicate. */
    public boolean test(Object fieldValue) {
        if (fieldValue == null) {
            return op == Op.NE || op == Op.IS_NOT || op == Op.DOES_NOT_CONTAIN;
        }
        String text = String.valueOf(fieldValue);
        switch (op) {
            case CONTAINS:
                return text.toLowerCase(java.util.Locale.ROOT).contains(value.toLowerCase(java.util.Locale.ROOT));
            case DOES_NOT_CONTAIN:
                return !text.toLowerCase(java.util.Locale.ROOT).contains(value.toLowerCase(java.util.Locale.ROOT));
            case IS:
                return text.equalsIgnoreCase(value);
            case IS_NOT:
                return !text.equalsIgnoreCase(value);
            default:
                break;
        }
        Double f = number(fieldValue);
        if (op == Op.BETWEEN || op == Op.NOT_BETWEEN) {
            String[] parts = value.split(",");
            Double lo = parse(parts[0]);
            Double hi = parse(parts[1]);
            boolean in = f != null && lo != null && hi != null && f >= lo && f <= hi;
            return op == Op.BETWEEN ? in : !in;
        }
        Double v = parse(value);
        if (f == null || v == null) {
            int c = text.compareTo(value);
            return compare(c);
        }
        if (op == Op.MODULO) {
            return v != 0 && f % v == 0;
        }
        return compare(Double.compare(f, v));
    }

    private boolean compare(int c) {
        switch (op) {
            case EQ:
                return c == 0;
            case NE:
                return c != 0;
            case LE:
                return c <= 0;
            case GT:
                return c > 0;
            case LT:
                return c < 0;
            case GE:
                return c >= 0;
            default:
                return false;
        }
    }

    private static Double number(Object o) {
        if (o instanceof Number n) {
            return n.doubleValue();
        }
        return parse(String.valueOf(o));
    }

    private static Double parse(String s) {
        try {
            String t = s.trim();
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return (double) Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Double.valueOf(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
