package org.etw4j.nativebindings.windows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.etl.EtlWriter;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.LogfileHeader;
import org.etw4j.RawEventRecord;

/**
 * A synthetic .etl written by etw4j's {@link EtlWriter}, for the reverse proof of issue 21, item 13 (a file etw4j
 * wrote, opened by Windows' OpenTraceW): events of two providers on three processors, payloads of 0 to 4000 bytes,
 * activity ids, and the extended data items a session adds (related activity id, SID, TS_ID, 64-bit stack).
 * The facts written are returned, so a reader's result can be compared with what was meant.
 *
 * <p>Test helper; stateless.
 */
final class SyntheticEtl {
    static final Guid PROVIDER_A = Guid.parse("6f1a2b3c-0000-4000-8000-00000000000a");
    static final Guid PROVIDER_B = Guid.parse("6f1a2b3c-0000-4000-8000-00000000000b");
    static final int EVENTS = 240;
    private static final int[] PAYLOAD_SIZES = {0, 1, 7, 100, 4000};

    private SyntheticEtl() {
    }

    /** One event as a consumer would see it (an {@code EVENT_RECORD} value). */
    private record Event(int flags, int threadId, int processId, long timestamp, Guid provider, int id, int level,
                         int opcode, int task, long keyword, Guid activity, int processor, List<Integer> itemTypes,
                         List<byte[]> itemData, byte[] payload) implements RawEventRecord {
        @Override public int eventProperty() { return 0; }
        @Override public long providerIdMsb() { return provider.mostSignificantBits(); }
        @Override public long providerIdLsb() { return provider.leastSignificantBits(); }
        @Override public int version() { return 1; }
        @Override public int channel() { return 0; }
        @Override public int kernelTime() { return 3; }
        @Override public int userTime() { return 5; }
        @Override public long activityIdMsb() { return activity.mostSignificantBits(); }
        @Override public long activityIdLsb() { return activity.leastSignificantBits(); }
        @Override public int processorIndex() { return processor; }
        @Override public int pointerSize() { return 8; }
        @Override public int extendedDataCount() { return itemTypes.size(); }
        @Override public int extendedDataType(int index) { return itemTypes.get(index); }
        @Override public ByteBuffer extendedData(int index) {
            return ByteBuffer.wrap(itemData.get(index)).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
        }
        @Override public ByteBuffer userData() {
            return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
        }
        @Override public int userDataLength() { return payload.length; }
    }

    /** Writes the synthetic trace to {@code etl} and returns the facts of the events written, in writing order. */
    static List<RecordFacts> write(Path etl, long startFileTime) throws IOException {
        long boot = startFileTime - 36_000_000_000L; // booted an hour before
        LogfileHeader header = EtlWriter.newHeader("etw4j-synthetic", etl, 64 * 1024, startFileTime, boot);
        List<RecordFacts> written = new ArrayList<>();
        try (EtlWriter w = EtlWriter.create(etl, header, EtlWriter.startRawOf(header))) {
            for (int i = 0; i < EVENTS; i++) {
                Event e = event(i, startFileTime + 10_000L + i * 1_000L);
                w.writeEvent(e);
                written.add(RecordFacts.of(e));
            }
        }
        return written;
    }

    private static Event event(int i, long fileTime) {
        List<Integer> types = new ArrayList<>();
        List<byte[]> data = new ArrayList<>();
        if (i % 4 == 1) {
            types.add(EventHeaderLayout.EXT_RELATED_ACTIVITYID);
            data.add(Guid.parse(String.format("00000000-0000-4000-8000-%012x", i)).toWindowsBytes());
        }
        if (i % 5 == 2) {
            types.add(EventHeaderLayout.EXT_SID);
            // S-1-5-21-1-2-3-1001: revision 1, 5 sub-authorities, authority 5 (NT), then the sub-authorities
            data.add(ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).put((byte) 5)
                    .put(new byte[] {0, 0, 0, 0, 0, 5}).putInt(21).putInt(1).putInt(2).putInt(3).putInt(1001).array());
            types.add(EventHeaderLayout.EXT_TS_ID);
            data.add(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(1).array());
        }
        if (i % 7 == 3) {
            types.add(EventHeaderLayout.EXT_STACK_TRACE64);
            ByteBuffer stack = ByteBuffer.allocate(8 + 3 * 8).order(ByteOrder.LITTLE_ENDIAN).putLong(0x1000L + i);
            for (int f = 0; f < 3; f++) {
                stack.putLong(0x7ff6_1234_0000L + i * 16L + f);
            }
            data.add(stack.array());
        }
        byte[] payload = new byte[PAYLOAD_SIZES[i % PAYLOAD_SIZES.length]];
        for (int b = 0; b < payload.length; b++) {
            payload[b] = (byte) (i + b);
        }
        Guid activity = i % 3 == 0 ? Guid.NULL : Guid.parse(String.format("11111111-0000-4000-8000-%012x", i));
        int flags = types.isEmpty() ? 0 : EventHeaderLayout.FLAG_EXTENDED_INFO;
        return new Event(flags, 4000 + i % 5, 1234, fileTime, i % 2 == 0 ? PROVIDER_A : PROVIDER_B, 1 + i % 9,
                1 + i % 5, i % 3, 10 + i % 4, 1L << (i % 8), activity, i % 3, List.copyOf(types), List.copyOf(data),
                payload);
    }

    /** Only the EVENT_HEADER records (drops the logfile header and other classic records). */
    static List<RecordFacts> eventHeaderRecords(List<RecordFacts> facts) {
        return facts.stream().filter(f -> !f.classic()).toList();
    }
}
