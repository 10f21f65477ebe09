package org.etw4j.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.TdhMetadata;
import org.etw4j.consumer.etl.FuzzSeeds;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the in-trace TDH metadata ({@link TdhMetadata}: the KernelTraceControl MetaData events carrying
 * TRACE_EVENT_INFO and EVENT_MAP_INFO blobs) and decoding with the schemas it yields. An input is
 * {@code u16 n, n bytes of TRACE_EVENT_INFO, payload}; with {@code n = 0xFFFF} the rest is an EventMapInfo
 * payload. Seeds: every distinct blob in the corpus ({@link FuzzSeeds#tdhSeeds}).
 *
 * <p>Invariants: {@link TdhMetadata#parseEventInfo} / {@link TdhMetadata#parseMapInfo} return or throw
 * {@link IllegalArgumentException}, nothing else; fed as MetaData records to an {@link EventDecoder}, the blobs
 * never make it throw (problems are notes and registry problems); an event the learnt schema describes then
 * decodes without throwing, its undecoded tail within the payload.
 */
class TdhMetadataFuzzTest {

    static Stream<Arguments> seeds() {
        List<Arguments> all = new ArrayList<>();
        int i = 0;
        for (byte[] s : FuzzSeeds.tdhSeeds(48)) {
            all.add(Arguments.of(Named.of("corpus-tdh-" + i++, s)));
        }
        return all.stream();
    }

    @MethodSource("seeds")
    @FuzzTest
    void eventInfoAndMapInfo(byte[] data) {
        if (data.length < 2) {
            return;
        }
        int n = (data[0] & 0xFF) | (data[1] & 0xFF) << 8;
        EventDecoder decoder = new EventDecoder();
        if (n == 0xFFFF) {
            byte[] map = Arrays.copyOfRange(data, 2, data.length);
            try {
                TdhMetadata.parseMapInfo(ByteBuffer.wrap(map));
            } catch (IllegalArgumentException e) {
                // malformed: reported
            }
            decoder.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic()
                    .opcode(TdhMetadata.OPCODE_EVENT_MAP_INFO).data(map).build());
            return;
        }
        int end = Math.min(data.length, 2 + n);
        byte[] blob = Arrays.copyOfRange(data, 2, end);
        byte[] payload = Arrays.copyOfRange(data, end, data.length);
        TdhMetadata.EventInfo info;
        try {
            info = TdhMetadata.parseEventInfo(ByteBuffer.wrap(blob));
        } catch (IllegalArgumentException e) {
            info = null;
        }
        decoder.decode(TestRecord.builder(TdhMetadata.METADATA_CLASS).classic()
                .opcode(TdhMetadata.OPCODE_EVENT_INFO).data(blob).build());
        if (info == null) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);
        Guid provider = info.classic() ? info.eventGuid() : Guid.readFrom(b, 0);
        TestRecord.Builder event = TestRecord.builder(provider).version(b.get(34) & 0xFF).opcode(b.get(36) & 0xFF)
                .task(b.getShort(38) & 0xFFFF).data(payload);
        event = info.classic() ? event.classic() : event.id(b.getShort(32) & 0xFFFF);
        DecodedEvent e = decoder.decode(event.build());
        assertTrue(e.undecodedLength() >= 0 && e.undecodedLength() <= payload.length,
                "undecoded " + e.undecodedLength() + " of " + payload.length);
        assertEquals(payload.length, e.payloadLength());
    }
}
