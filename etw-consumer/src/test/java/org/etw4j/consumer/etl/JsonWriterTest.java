package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.etw4j.consumer.json.JsonWriter;
import org.junit.jupiter.api.Test;

/** The streaming JSON writer (it lives in org.etw4j.consumer.json; tested here, next to its main user). */
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
