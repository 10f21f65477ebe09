package org.etw4j.consumer.internal.decode;

/**
 * A field's length or count as a schema declares it: absent, a literal, or the name of an earlier field whose
 * value holds it (TDH {@code PropertyParamLength}/{@code PropertyParamCount} vs the {@code Fixed} variants).
 * Immutable value; thread-safe. Source: etw-formats.md section 4.3 items 3 and 4 (MS Learn
 * DataDefinitionType {@code length}/{@code count}).
 *
 * @param literal   the fixed number, or -1 when the rule is absent or refers to a field
 * @param fieldName the earlier field holding the number, or {@code null}
 */
record SizeRule(int literal, String fieldName) {

    private static final SizeRule NONE = new SizeRule(-1, null);
    /** {@link #literal()} of {@link #toEnd()}. */
    public static final int TO_END = -2;
    private static final SizeRule REST = new SizeRule(TO_END, null);

    /**
     * As many elements as the rest of the data holds (classic MOF arrays such as StackWalk's frames, which have
     * no count field).
     */
    public static SizeRule toEnd() {
        return REST;
    }

    /** Whether this is {@link #toEnd()}. */
    public boolean isToEnd() {
        return literal == TO_END;
    }

    /** No length/count given. */
    public static SizeRule none() {
        return NONE;
    }

    /** A fixed number. */
    public static SizeRule of(int literal) {
        if (literal < 0) {
            throw new IllegalArgumentException("negative size " + literal);
        }
        return new SizeRule(literal, null);
    }

    /** The value of the earlier field {@code fieldName}. */
    public static SizeRule ref(String fieldName) {
        return new SizeRule(-1, fieldName);
    }

    /**
     * Parses a manifest attribute: digits (decimal or {@code 0x} hex) are a literal, anything else names a
     * field; {@code null}/blank is {@link #none()}.
     */
    public static SizeRule parse(String attribute) {
        if (attribute == null || attribute.isBlank()) {
            return NONE;
        }
        String s = attribute.trim();
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return of(Integer.parseInt(s.substring(2), 16));
            }
            if (Character.isDigit(s.charAt(0))) {
                return of(Integer.parseInt(s));
            }
        } catch (NumberFormatException e) {
            // not a number: a field name after all
        }
        return ref(s);
    }

    /** Whether a length or count was given. */
    public boolean present() {
        return literal >= 0 || literal == TO_END || fieldName != null;
    }

    /** Whether the number comes from another field. */
    public boolean isReference() {
        return fieldName != null;
    }

    @Override
    public String toString() {
        return !present() ? "none" : isToEnd() ? "*" : fieldName != null ? "@" + fieldName : Integer.toString(literal);
    }
}
