package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.etw4j.consumer.output.JsonWriter;
import org.junit.jupiter.api.Test;

/** The streaming JSON writer (it lives in org.etw4j.consumer.output; tested here, next to its main user). */
class JsonWriterTest {

    @Test
    void writesCompactJson() {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb);
        w.beginObject().member("a", 1).name("b").beginArray().value("x").nullValue().value(true).value(-5L).endArray()
                .name("c").beginObject().endObject().name("d").beginArray().endArray().endObject();
        assertEquals("{\"a\":1,\"b\":[\"x\",null,true,-5],\"c\":{},\"d\":[]}", sb.toString());
        assertTrue(w.isComplete());
    }

    @Test
    void indentsAndParsesBack() {
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb, 2).beginObject().member("k", "v").name("list").beginArray().value(1).value(2).endArray()
                .endObject();
        assertEquals("{\n  \"k\": \"v\",\n  \"list\": [\n    1,\n    2\n  ]\n}", sb.toString());
        Map<String, Object> m = MiniJson.object(MiniJson.parse(sb.toString()));
        assertEquals("v", m.get("k"));
        assertEquals(List.of(1L, 2L), m.get("list"));
    }

    @Test
    void escapesStrings() {
        String nasty = "q\"b\\s/\n\r\t\b\f\u0001\u001f\u2028é\uD83D\uDE00";
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb).beginArray().value(nasty).endArray();
        assertEquals("[\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\\u2028é\uD83D\uDE00\"]", sb.toString());
        assertEquals(List.of(nasty), MiniJson.parse(sb.toString()));
    }

    @Test
    void writesFloatingPointUnsignedNonFiniteAndStringArrays() {
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb).beginArray().value(1.5).value(0.1f).value(-0.0).value(1e300).value(Double.NaN)
                .value(Double.POSITIVE_INFINITY).value(Float.NEGATIVE_INFINITY).unsignedValue(-1L).unsignedValue(7)
                .stringArray(java.util.Arrays.asList("a", null)).endArray();
        assertEquals("[1.5,0.1,-0.0,1.0E300,\"NaN\",\"Infinity\",\"-Infinity\",18446744073709551615,7,[\"a\",null]]",
                sb.toString());
    }

    @Test
    void resetStartsTheNextTextOfJsonLines() {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb);
        w.beginObject().member("n", 1).endObject();
        assertThrows(IllegalStateException.class, () -> w.value(2), "one root value per text");
        sb.append('\n');
        w.reset().beginObject().member("n", 2).endObject();
        assertTrue(w.isComplete());
        assertEquals("{\"n\":1}\n{\"n\":2}", sb.toString());
        // a reset in the middle of a text forgets the open containers
        w.reset().beginArray();
        assertFalse(w.reset().isComplete());
    }

    @Test
    void rejectsMisuse() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginObject().value(1));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().name("x"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().endObject());
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).value(1).value(2));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginObject().name("a").name("b"));
        JsonWriter open = new JsonWriter(new StringBuilder()).beginArray();
        assertFalse(open.isComplete());
    }

    @Test
    void deepNestingGrows() {
        StringBuilder sb = new StringBuilder();
        JsonWriter w = new JsonWriter(sb);
        for (int i = 0; i < 100; i++) {
            w.beginArray();
        }
        for (int i = 0; i < 100; i++) {
            w.endArray();
        }
        assertEquals("[".repeat(100) + "]".repeat(100), sb.toString());
    }
}
