package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.junit.jupiter.api.Test;

/** Integers compare exactly, with the sign the schema gives: no modulo 2^width (issue 10, defect 3). */
class BaselineComparatorTest {

    private static EventField field(InType t, Object value) {
        return EventField.of("f", t, OutType.NULL, value, null);
    }

    @Test
    void signedSchemaValuesCompareSigned() {
        assertNull(BaselineComparator.compare(field(InType.INT64, -204L), "-204", 8));
        assertNull(BaselineComparator.compare(field(InType.INT32, -102), "-102", 8));
        assertNull(BaselineComparator.compare(field(InType.INT16, -51), "-51", 8));
        String why = BaselineComparator.compare(field(InType.INT64, -204L), "18,446,744,073,709,551,412", 8);
        assertNotNull(why);
        assertTrue(why.startsWith(BaselineComparator.SIGN_ONLY), why);
    }

    @Test
    void unsignedSchemaValuesCompareUnsigned() {
        assertNull(BaselineComparator.compare(field(InType.UINT64, -204L), "18,446,744,073,709,551,412", 8));
        assertNull(BaselineComparator.compare(field(InType.UINT32, 0xFFFF_FFFFL), "4,294,967,295", 8));
        String why = BaselineComparator.compare(field(InType.UINT64, -204L), "-204", 8);
        assertNotNull(why, "a printed -204 is not a UINT64 value: only a named exception may accept it");
        assertTrue(why.startsWith(BaselineComparator.SIGN_ONLY), why);
        assertTrue(BaselineComparator.compare(field(InType.UINT32, 0xFFFF_FFFFL), "-1", 8)
                .startsWith(BaselineComparator.SIGN_ONLY));
    }

    @Test
    void otherDifferencesAreNotSignOnly() {
        String why = BaselineComparator.compare(field(InType.UINT32, 5L), "6", 8);
        assertNotNull(why);
        assertTrue(!why.startsWith(BaselineComparator.SIGN_ONLY), why);
        // 2^32 + 5 and 5 agree modulo 2^32 but not as numbers of a 64-bit field.
        assertNotNull(BaselineComparator.compare(field(InType.UINT64, (1L << 32) + 5), "5", 8));
    }

    @Test
    void truncatedNumbersCompareTheirPrefixWithTheSchemaSign() {
        assertNull(BaselineComparator.compare(field(InType.UINT64, 0xE000_0000_0000_0000L), "16,140,901,064,495,8...", 8));
        String why = BaselineComparator.compare(field(InType.UINT64, 0xE000_0000_0000_0000L), "-2,305,843,009,213,6...", 8);
        assertTrue(why.startsWith(BaselineComparator.SIGN_ONLY), why);
    }

    @Test
    void hexIsTheUnsignedBits() {
        assertNull(BaselineComparator.compare(field(InType.HEXINT32, 0x8007_0002L), "0x80070002", 8));
        assertEquals(null, BaselineComparator.compare(field(InType.POINTER, -1L), "0xffffffffffffffff", 8));
    }
}
