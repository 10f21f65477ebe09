package org.etw4j.consumer.etl;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;

/**
 * Compressed .etl files whose buffers inflate far beyond their stored size, as the audit's
 * {@code ../shared/hardening/mkbomb.py} builds them (issue 22, A1 and A2), but from {@link EtlBuilder}'s header so
 * that the tests need no corpus: each data buffer is one literal 0xFF and one Plain LZ77 match of offset 1 that
 * repeats it to the whole logical buffer (padding only: no record), optionally followed by {@code pad} unused bytes
 * that lower the buffer's ratio.
 *
 * <p>Static helpers; thread-safe.
 */
final class CompressionBombs {
    private CompressionBombs() {
    }

    /**
     * A compressed-mode file with a {@code logical}-byte buffer size and {@code buffers} bomb buffers spread over
     * {@code processors} processors; the header buffer holds the logfile header record and one PERFINFO record.
     */
    static byte[] file(int logical, int buffers, int processors, int pad) {
        EtlBuilder b = new EtlBuilder();
        b.bufferSize = logical;
        b.logFileMode |= LogfileHeaderLayout.MODE_COMPRESSED;
        b.headerBufferRecords.add(EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 1, b.t0 + 1, new byte[8]));
        byte[] header = b.build();
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int logfile = WmiBufferLayout.HEADER_SIZE + SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE; // the header record's payload
        h.putInt(logfile + LogfileHeaderLayout.BUFFERS_WRITTEN, buffers + 1);
        h.putInt(logfile + LogfileHeaderLayout.NUMBER_OF_PROCESSORS, processors);
        byte[] stream = stream(logical - WmiBufferLayout.HEADER_SIZE, pad);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        for (int k = 0; k < buffers; k++) {
            ByteBuffer d = ByteBuffer.allocate(WmiBufferLayout.HEADER_SIZE + stream.length).order(ByteOrder.LITTLE_ENDIAN);
            d.putInt(WmiBufferLayout.BUFFER_SIZE, d.capacity());
            d.putInt(WmiBufferLayout.SAVED_OFFSET, logical);
            d.putInt(WmiBufferLayout.CURRENT_OFFSET, logical);
            d.putLong(WmiBufferLayout.TIMESTAMP, b.t0 + 10 + k);
            d.putLong(WmiBufferLayout.SEQUENCE_NUMBER, k + 1);
            d.putShort(WmiBufferLayout.PROCESSOR_INDEX, (short) (k % processors));
            d.putShort(WmiBufferLayout.LOGGER_ID, (short) 0x10);
            d.putInt(WmiBufferLayout.STATE, WmiBufferLayout.STATE_FLUSH);
            d.putInt(WmiBufferLayout.OFFSET, logical);
            d.putShort(WmiBufferLayout.BUFFER_FLAG, (short) (WmiBufferLayout.FLAG_COMPRESSED | WmiBufferLayout.FLAG_PROC_INDEX));
            d.putShort(WmiBufferLayout.BUFFER_TYPE, (short) WmiBufferLayout.TYPE_GENERIC);
            d.put(WmiBufferLayout.HEADER_SIZE, stream);
            out.writeBytes(d.array());
        }
        return out.toByteArray();
    }

    /** Plain LZ77 ([MS-XCA] 2.3): a literal 0xFF, then one match of offset 1 to {@code total} bytes, then pad bytes. */
    static byte[] stream(int total, int pad) {
        ByteBuffer s = ByteBuffer.allocate(15 + pad).order(ByteOrder.LITTLE_ENDIAN);
        s.putInt(0x7FFF_FFFF);  // flag bits, first token first: a literal (0), then matches (1)
        s.put((byte) 0xFF);
        s.putShort((short) 7);  // offset 1 ((1 - 1) << 3), length field 7: the length continues
        s.put((byte) 0x0F);     // half byte 15: a length byte follows
        s.put((byte) 0xFF);     // 255: a u16 follows
        s.putShort((short) 0);  // 0: a u32 follows
        s.putInt(total - 1 - 3);  // the match's length minus 3
        return s.array();
    }
}
