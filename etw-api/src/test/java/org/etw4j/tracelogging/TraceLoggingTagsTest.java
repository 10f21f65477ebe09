package org.etw4j.tracelogging;

import static org.etw4j.tracelogging.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TraceLoggingTagsTest {

    // etw-formats.md section 1.3 tag table [V]: value, TraceLoggingDynamic.h/go-winio/EventSource bytes, and the
    // Python encoder's bytes (always 4 when tags != 0).
    private static final Object[][] TABLE = {
        {0, "00", null},
        {1, "80808001", "80808001"},
        {0x80, "808001", "80808100"},
        {0x00200000, "01", "81808000"},
        {0x02400000, "12", "92808000"},
        {0x0FFFFFFF, "ffffff7f", "ffffff7f"},
    };

    @Test
    void shortestFormMatchesTableAndBothFormsDecodeToTheSameValue() {
        for (Object[] row : TABLE) {
            int tags = (Integer) row[0];
            byte[] tld = hex((String) row[1]);
            byte[] out = new byte[8];
            int end = TraceLoggingTags.encode(tags, out, 0);
            assertArrayEquals(tld, Arrays.copyOf(out, end), "encode 0x" + Integer.toHexString(tags));
            assertEquals(tld.length, TraceLoggingTags.encodedLength(tags));
            assertEquals(tags, TraceLoggingTags.decode(tld, 0, tld.length));
            assertEquals(tld.length, TraceLoggingTags.length(tld, 0, tld.length));
            if (row[2] != null) {
                byte[] py = hex((String) row[2]);
                assertEquals(tags, TraceLoggingTags.decode(py, 0, py.length), "Python form of 0x" + Integer.toHexString(tags));
                assertEquals(py.length, TraceLoggingTags.length(py, 0, py.length));
            }
        }
    }

    @Test
    void sdkExampleByte() {
        // SDK-TLP text: "0x12 -> tag 0x02400000".
        assertEquals(0x02400000, TraceLoggingTags.decode(hex("12"), 0, 1));
    }

    @Test
    void sdkTwoByteEventForm() {
        byte[] out = new byte[8];
        // lxcore BreakPoint event (etw-formats.md 1.9b) carries 80 00 for "no tags".
        assertArrayEquals(hex("8000"), Arrays.copyOf(out, TraceLoggingTags.encodeAtLeastTwoBytes(0, out, 0)));
        assertArrayEquals(hex("9200"), Arrays.copyOf(out, TraceLoggingTags.encodeAtLeastTwoBytes(0x02400000, out, 0)));
        assertArrayEquals(hex("808001"), Arrays.copyOf(out, TraceLoggingTags.encodeAtLeastTwoBytes(0x80, out, 0)));
        Random r = new Random(28);
        for (int i = 0; i < 5000; i++) {
            int tags = r.nextInt(TraceLoggingTags.MAX + 1) >>> r.nextInt(28) << r.nextInt(8) & TraceLoggingTags.MAX;
            int n = TraceLoggingTags.encodeAtLeastTwoBytes(tags, out, 0);
            assertEquals(tags, TraceLoggingTags.decode(out, 0, n));
            assertEquals(n, TraceLoggingTags.length(out, 0, n));
            n = TraceLoggingTags.encode(tags, out, 0);
            assertEquals(tags, TraceLoggingTags.decode(out, 0, n));
            assertEquals(n, TraceLoggingTags.encodedLength(tags));
        }
    }

    @Test
    void bytesAfterTheFourthAreIgnoredAndUnterminatedIsDetected() {
        byte[] five = hex("8080808105");
        assertEquals(1, TraceLoggingTags.decode(five, 0, five.length));
        assertEquals(5, TraceLoggingTags.length(five, 0, five.length));
        assertEquals(-1, TraceLoggingTags.length(hex("8080"), 0, 2));
    }

    @Test
    void tagsAbove28BitsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingTags.check("x", 0x10000000));
        assertThrows(IllegalArgumentException.class, () -> TraceLoggingTags.check("x", -1));
        assertEquals(TraceLoggingTags.MAX, TraceLoggingTags.check("x", TraceLoggingTags.MAX));
    }
}
