package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.StructValue;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.junit.jupiter.api.Test;

class DecodedEventFormatTest {

    static DecodedEvent sample() {
        List<EventField> fields = List.of(
                EventField.of("Address", InType.UINT64, OutType.HEXINT64, 0x1b0f1000028L, null),
                EventField.of("Type", InType.UINT32, OutType.NULL, 3L, "Pinned"),
                EventField.of("Big", InType.UINT64, OutType.NULL, -1L, null),
                EventField.of("Neg", InType.INT32, OutType.NULL, -5, null),
                EventField.of("Ok", InType.BOOLEAN, OutType.NULL, true, null),
                EventField.of("Text", InType.UNICODE_STRING, OutType.NULL, "a\"b\nc", null),
                EventField.of("When", InType.FILETIME, OutType.NULL, Instant.parse("2021-09-09T14:59:35.799Z"), null),
                EventField.of("Id", InType.GUID, OutType.NULL, Guid.parse("0ad614c4-0ef4-4225-8013-f44f37cb0397"), null),
                EventField.of("Blob", InType.BINARY, OutType.NULL, new byte[] {1, (byte) 0xAB}, null),
                EventField.of("List", InType.UINT32, OutType.NULL, List.of(1L, 2L), null),
                EventField.of("S", InType.STRUCT, OutType.NULL,
                        new StructValue(List.of(EventField.of("X", InType.INT8, OutType.NULL, 1, null))), null),
                EventField.failed("Cut", InType.UINT64, OutType.NULL, null, "needs 8 bytes, 2 left", new byte[] {9, 9}));
        return new DecodedEvent(Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), "P", "GC/Thing", "GC", "Thing",
                5, 1, 134, SchemaSource.MANIFEST, fields, 40, new byte[] {7}, List.of("a note"), null);
    }

    @Test
    void textIsOneTraceEventLikeLine() {
        assertEquals("P/GC/Thing Address=0x1b0f1000028; Type=Pinned; Big=18446744073709551615; Neg=-5; Ok=True; "
                        + "Text=a\"b\\nc; When=2021-09-09T14:59:35.799Z; Id=0ad614c4-0ef4-4225-8013-f44f37cb0397; "
                        + "Blob=01ab; List=[1,2]; S={X=1}; Cut=<error: needs 8 bytes, 2 left; raw=0909>; "
                        + "<undecoded>=07;",
                EventFormatterAccess.text(sample()));
    }

    @Test
    void jsonKeepsTypesOrderLabelsAndErrors() {
        String json = EventFormatterAccess.json(sample());
        assertEquals("{\"provider\":\"P\",\"providerId\":\"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4\",\"event\":\"GC/Thing\","
                + "\"task\":\"GC\",\"opcode\":\"Thing\",\"id\":5,\"version\":1,\"source\":\"MANIFEST\",\"payloadLength\":40,"
                + "\"fields\":["
                + "{\"name\":\"Address\",\"type\":\"win:UInt64\",\"value\":\"0x1b0f1000028\"},"
                + "{\"name\":\"Type\",\"type\":\"win:UInt32\",\"value\":3,\"label\":\"Pinned\"},"
                + "{\"name\":\"Big\",\"type\":\"win:UInt64\",\"value\":18446744073709551615},"
                + "{\"name\":\"Neg\",\"type\":\"win:Int32\",\"value\":-5},"
                + "{\"name\":\"Ok\",\"type\":\"win:Boolean\",\"value\":true},"
                + "{\"name\":\"Text\",\"type\":\"win:UnicodeString\",\"value\":\"a\\\"b\\nc\"},"
                + "{\"name\":\"When\",\"type\":\"win:FILETIME\",\"value\":\"2021-09-09T14:59:35.799Z\"},"
                + "{\"name\":\"Id\",\"type\":\"win:GUID\",\"value\":\"0ad614c4-0ef4-4225-8013-f44f37cb0397\"},"
                + "{\"name\":\"Blob\",\"type\":\"win:Binary\",\"value\":\"01ab\"},"
                + "{\"name\":\"List\",\"type\":\"win:UInt32\",\"value\":[1,2]},"
                + "{\"name\":\"S\",\"type\":\"win:Struct\",\"value\":{\"X\":1}},"
                + "{\"name\":\"Cut\",\"type\":\"win:UInt64\",\"error\":\"needs 8 bytes, 2 left\",\"raw\":\"0909\"}],"
                + "\"undecoded\":\"07\",\"notes\":[\"a note\"]}", json);
    }

    @Test
    void messagesSubstituteFieldsAndFormatMessageEscapes() {
        List<EventField> f = List.of(EventField.of("Bytes", InType.UINT64, OutType.NULL, 4096L, null),
                EventField.of("Id", InType.UINT16, OutType.NULL, 8, null));
        assertEquals("BytesAllocated=4096;\n;\nClrInstanceID=8 100% %3",
                EventMessage.format("BytesAllocated=%1;%n;%nClrInstanceID=%2!u! 100%% %3", f));
        assertEquals(null, EventMessage.format(null, f));
    }

    @Test
    void jsonStringsEscapeControlCharacters() {
        // The string escaping is JsonWriter's; checked here through the decoded-event form that uses it.
        assertTrue(EventFormatterAccess.json(named("\u0001\t\\")).startsWith("{\"provider\":\"\\u0001\\t\\\\\","),
                EventFormatterAccess.json(named("\u0001\t\\")));
        assertTrue(EventFormatterAccess.json(named("é")).startsWith("{\"provider\":\"é\","));
    }

    /** An event with no fields whose provider name is {@code provider}. */
    private static DecodedEvent named(String provider) {
        return new DecodedEvent(Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), provider, "E", "", "", 1, 0, 0,
                SchemaSource.MANIFEST, List.of(), 0, new byte[0], List.of(), null);
    }
}
