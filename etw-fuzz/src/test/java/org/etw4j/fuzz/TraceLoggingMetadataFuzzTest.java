package org.etw4j.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.consumer.etl.FuzzSeeds;
import org.etw4j.tracelogging.DecodedField;
import org.etw4j.tracelogging.InType;
import org.etw4j.tracelogging.OutType;
import org.etw4j.tracelogging.TraceLoggingDecodeException;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.etw4j.tracelogging.TraceLoggingSchema;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the TraceLogging metadata decoder ({@link TraceLoggingSchema}) and the payload decoding it drives.
 * An input is a metadata blob (its own little-endian {@code Size} field says how long) followed by a payload.
 * Seeds: every distinct {@code EVENT_SCHEMA_TL} blob of the corpus with its first payload, and synthetic
 * schemas of every InType, arrays and nested structs.
 *
 * <p>Invariants: parsing either succeeds or throws {@link TraceLoggingDecodeException}; a parsed schema keeps
 * exactly {@code Size} bytes, re-parses to an equal schema from its own bytes and from a {@link ByteBuffer}, and
 * its field tree covers every declared field once. Decoding (pointer size 4 and 8) either succeeds, leaving the
 * position inside the payload, or throws {@link TraceLoggingDecodeException} with the position unchanged;
 * it yields at most 65536 + 4 values per payload byte (the decoder's documented guard).
 */
class TraceLoggingMetadataFuzzTest {

    static Stream<Arguments> seeds() {
        List<Arguments> all = new ArrayList<>();
        int i = 0;
        for (byte[] s : FuzzSeeds.traceLoggingSeeds(64)) {
            all.add(Arguments.of(Named.of("corpus-schema-" + i++, s)));
        }
        all.add(Arguments.of(Named.of("synthetic-every-intype", synthetic())));
        return all.stream();
    }

    /** A schema with one field of each InType the writer accepts (not NULL, POINTER), arrays of each kind and two nested structs. */
    static byte[] synthetic() {
        TraceLoggingEvent.Builder b = TraceLoggingEvent.builder("Fuzz.Every").tags(0x0F00000);
        for (InType t : InType.values()) {
            if (t != InType.STRUCT && t != InType.POINTER && t != InType.NULL) {
                b.field("f" + t.name(), t);
            }
        }
        b.array("varInts", InType.INT32).fixedArray("fixedGuids", InType.GUID, 2)
                .array("chars", InType.UINT16, OutType.STRING)
                .struct("outer", 2).field("a", InType.UINT8).struct("inner", 1).field("b", InType.UNICODE_STRING)
                .structArray("points", 2).field("x", InType.INT32).field("y", InType.INT32);
        byte[] meta = b.build().metadata();
        byte[] payload = new byte[256];
        Arrays.fill(payload, 128, 256, (byte) 0x41);
        byte[] r = Arrays.copyOf(meta, meta.length + payload.length);
        System.arraycopy(payload, 0, r, meta.length, payload.length);
        return r;
    }

    @MethodSource("seeds")
    @FuzzTest
    void metadataAndPayload(byte[] data) {
        TraceLoggingSchema schema;
        try {
            schema = TraceLoggingSchema.parse(data);
        } catch (TraceLoggingDecodeException e) {
            return;
        }
        int size = (data[0] & 0xFF) | (data[1] & 0xFF) << 8;
        assertEquals(size, schema.metadataLength());
        byte[] meta = schema.metadata();
        assertArrayEquals(Arrays.copyOf(data, size), meta);
        assertTrue(schema.matches(data, 0, size));
        assertEquals(schema, TraceLoggingSchema.parse(meta));
        assertEquals(schema, TraceLoggingSchema.parse(ByteBuffer.wrap(data)));
        assertEquals(schema.fields().size(), count(schema.topLevelFields()), "field tree covers each field once");

        for (int pointerSize : new int[] {4, 8}) {
            ByteBuffer payload = ByteBuffer.wrap(data, size, data.length - size).slice();
            List<DecodedField> fields;
            try {
                fields = schema.decode(payload, pointerSize);
            } catch (TraceLoggingDecodeException e) {
                assertEquals(0, payload.position(), "a failed decode leaves the position unchanged");
                continue;
            }
            assertTrue(payload.position() <= payload.limit());
            assertEquals(schema.topLevelFields().size(), fields.size());
            long values = values(fields);
            long guard = 65536 + 4L * payload.limit();
            assertTrue(values <= guard, values + " values from " + payload.limit() + " payload bytes");
        }
    }

    private static int count(List<TraceLoggingSchema.FieldNode> nodes) {
        int n = 0;
        for (TraceLoggingSchema.FieldNode node : nodes) {
            n += 1 + count(node.members());
        }
        return n;
    }

    private static long values(Object v) {
        if (v instanceof DecodedField f) {
            return 1 + values(f.value());
        }
        if (v instanceof List<?> l) {
            long n = 0;
            for (Object o : l) {
                n += values(o);
            }
            return n;
        }
        return 0;
    }
}
