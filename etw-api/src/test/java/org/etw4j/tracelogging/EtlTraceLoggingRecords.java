package org.etw4j.tracelogging;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: the TraceLogging events of an .etl file, found with the minimal buffer walk of
 * etw-formats.md Appendix A / sections 3.1-3.4 (buffer size at offset 0, SavedOffset at +4, records from 0x48,
 * 8-byte aligned; EVENT_HEADER records 0x12/0x13 with extended items u16 ItemSize, u16 ExtType, u16 Linkage,
 * u16 DataSize after the 0x50-byte header). Not a reader: etw-consumer owns that; this only feeds the decoder
 * real bytes.
 */
final class EtlTraceLoggingRecords {

    /** One event: where it is, its two TraceLogging blobs and its user data. */
    record Event(int fileOffset, int pointerSize, byte[] providerTraits, byte[] eventMetadata, byte[] payload) {
    }

    private EtlTraceLoggingRecords() {
    }

    static List<Event> read(Path etl) throws IOException {
        ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(etl)).order(ByteOrder.LITTLE_ENDIAN);
        int bufferSize = f.getInt(0);
        List<Event> events = new ArrayList<>();
        for (int off = 0; off + 0x48 <= f.capacity(); off += bufferSize) {
            int end = f.getInt(off + 4);
            int p = 0x48;
            while (p < end && p + 8 <= bufferSize) {
                int marker = f.getInt(off + p);
                if (marker == 0xFFFFFFFF) {
                    break;
                }
                int type = (marker >>> 16) & 0xFF;
                boolean sizeAt4 = type == 1 || type == 2 || type == 3 || type == 4 || type == 0x10 || type == 0x11;
                int size = sizeAt4 ? f.getShort(off + p + 4) & 0xFFFF : marker & 0xFFFF;
                if (size == 0) {
                    break;
                }
                if ((type == 0x12 || type == 0x13) && (f.getShort(off + p + 4) & 1) != 0) {
                    Event e = event(f, off + p, size, type == 0x13 ? 8 : 4);
                    if (e != null) {
                        events.add(e);
                    }
                }
                p += (size + 7) & ~7;
            }
        }
        return events;
    }

    private static Event event(ByteBuffer f, int rec, int size, int pointerSize) {
        int q = rec + 0x50;
        byte[] traits = null;
        byte[] meta = null;
        while (true) {
            int itemSize = f.getShort(q) & 0xFFFF;
            int extType = f.getShort(q + 2) & 0xFFFF;
            int linkage = f.getShort(q + 4) & 0xFFFF;
            int dataSize = f.getShort(q + 6) & 0xFFFF;
            byte[] data = new byte[dataSize];
            f.get(q + 8, data);
            if (extType == 0x0C) {
                traits = data;
            } else if (extType == 0x0B) {
                meta = data;
            }
            q += itemSize;
            if (linkage == 0) {
                break;
            }
        }
        if (meta == null) {
            return null;
        }
        byte[] payload = new byte[rec + size - q];
        f.get(q, payload);
        return new Event(rec, pointerSize, traits, meta, payload);
    }
}
