package org.etw4j.consumer.etl;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.WmiBufferLayout;

/**
 * Rewrites an .etl file (uncompressed, or compressed-mode with Plain LZ77 buffers) as a compressed-mode
 * file whose data buffers are LZNT1-compressed with BufferFlag 0x40, laid out as the corpus' compressed
 * files are (etw-formats.md 3.2): LogFileMode gains EVENT_TRACE_COMPRESSED_MODE, buffer 0 stays
 * uncompressed, every other buffer is its 0x48-byte header (BufferSize = stored size, SavedOffset kept)
 * followed by the LZNT1 form of its bytes {@code [0x48, SavedOffset)}. A buffer whose LZNT1 form would not
 * fit the logical buffer size is kept uncompressed. Test utility: the layout is an assumption carried over
 * from the Plain LZ77 files, not something seen in an LZNT1 file.
 *
 * <p>Stateless; thread-safe.
 */
final class Lznt1EtlRewriter {
    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;
    private static final int LOGFILE = HEADER + SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;

    private Lznt1EtlRewriter() {
    }

    /** The rewritten file and how many of its buffers are LZNT1-compressed. */
    record Result(byte[] file, int lznt1Buffers, int buffers) {
    }

    static Result rewrite(byte[] etl, Lznt1Encoder.Mode mode, boolean terminator) {
        ByteBuffer in = ByteBuffer.wrap(etl).order(ByteOrder.LITTLE_ENDIAN);
        int logical = in.getInt(LOGFILE + LogfileHeaderLayout.BUFFER_SIZE);
        int logFileMode = in.getInt(LOGFILE + LogfileHeaderLayout.LOG_FILE_MODE);
        boolean compressedMode = (logFileMode & LogfileHeaderLayout.MODE_COMPRESSED) != 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int offset = 0;
        int index = 0;
        int lznt1 = 0;
        while (offset + HEADER <= etl.length) {
            int stored = Math.min(compressedMode ? in.getInt(offset + WmiBufferLayout.BUFFER_SIZE) : logical,
                    etl.length - offset);
            byte[] buffer = Arrays.copyOfRange(etl, offset, offset + stored);
            ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
            if (index == 0) {
                b.putInt(LOGFILE + LogfileHeaderLayout.LOG_FILE_MODE, logFileMode | LogfileHeaderLayout.MODE_COMPRESSED);
                out.writeBytes(buffer);
            } else {
                int flags = b.getShort(WmiBufferLayout.BUFFER_FLAG) & 0xFFFF;
                int saved = b.getInt(WmiBufferLayout.SAVED_OFFSET);
                byte[] data = new byte[saved - HEADER];
                if ((flags & WmiBufferLayout.FLAG_COMPRESSED) != 0) {
                    int n = PlainLz77.decode(buffer, HEADER, stored, data, 0, data.length);
                    if (n != data.length) {
                        throw new IllegalArgumentException("buffer " + index + " is not Plain LZ77");
                    }
                } else {
                    System.arraycopy(buffer, HEADER, data, 0, data.length);
                }
                byte[] packed = Lznt1Encoder.encode(data, mode, terminator);
                boolean compress = HEADER + packed.length <= logical;
                byte[] payload = compress ? packed : data;
                b.putShort(WmiBufferLayout.BUFFER_FLAG, (short) (compress ? flags | WmiBufferLayout.FLAG_COMPRESSED
                        : flags & ~WmiBufferLayout.FLAG_COMPRESSED));
                b.putInt(WmiBufferLayout.BUFFER_SIZE, HEADER + payload.length);
                out.write(buffer, 0, HEADER);
                out.writeBytes(payload);
                lznt1 += compress ? 1 : 0;
            }
            offset += stored;
            index++;
        }
        return new Result(out.toByteArray(), lznt1, index);
    }
}
