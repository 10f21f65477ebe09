package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.StructValue;
import org.junit.jupiter.api.Test;

class FieldValuesTest {
    @Test
    void integralValuesCompareByValueWhateverTheirBoxes() {
        assertTrue(FieldValues.matches(7L, 7), "a UINT32 decodes to Long; 7 matches it");
        assertTrue(FieldValues.matches(7, (byte) 7));
        assertFalse(FieldValues.matches(4294967295L, -1), "an unsigned 0xFFFFFFFF is not -1");
        assertTrue(FieldValues.matches(-1L, -1L));
        assertFalse(FieldValues.matches(7L, 7.0), "an integer does not equal a double");
    }

    @Test
    void floatingValuesCompareExactly() {
        assertTrue(FieldValues.matches((double) 0.1f, 0.1f), "a FLOAT decodes to the float widened to double");
        assertFalse(FieldValues.matches((double) 0.1f, 0.1), "no tolerance");
        assertTrue(FieldValues.matches(Double.NaN, Double.NaN));
    }

    @Test
    void otherValuesUseEqualsAndBytesTheirContent() {
        assertTrue(FieldValues.matches(new byte[] {1, 2}, new byte[] {1, 2}));
        assertFalse(FieldValues.matches("7", 7));
        Guid g = Guid.parse("68fdd900-4a3e-11d1-84f4-0000f80464e3");
        assertTrue(FieldValues.matches(g, Guid.parse(g.toString())));
        assertFalse(FieldValues.matches(null, "x"));
    }

    @Test
    void messagesQuoteStringsAndNameNumberTypes() {
        assertEquals("\"a\\nb\"", FieldValues.typed("a\nb"));
        assertEquals("7 (Long)", FieldValues.typed(7L));
        assertEquals("0x0aff (byte[])", FieldValues.typed(new byte[] {10, -1}));
        assertEquals("null", FieldValues.typed(null));
    }

    @Test
    void structsArraysAndLongStringsStayOnOneBoundedLine() {
        StructValue exception = new StructValue(List.of(
                EventField.of("TypeName", InType.UNICODE_STRING, OutType.NULL, "java.lang.IllegalStateException", null),
                EventField.of("VerboseMessage", InType.UNICODE_STRING, OutType.NULL, "at a\r\n\tat b" + "x".repeat(300), null)));
        String shown = FieldValues.text(new StringBuilder(), List.of(exception, 7)).toString();
        assertEquals("[{TypeName=\"java.lang.IllegalStateException\", VerboseMessage=\"at a\\r\\n\\tat b" + "x".repeat(FieldValues.MAX_STRING - 11)
                + "\"...(311 chars)}, 7]", shown);
    }
}
