package org.etw4j.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.etw4j.format.WmiBufferLayout;

/**
 * One fixed-size session buffer, laid out as ETW lays out its buffers: a WMI_BUFFER_HEADER, 8-aligned records,
 * 0xFF padding (etw-formats.md section 3.2).
 *
 * <p>Not thread-safe: filled under its session's lock, then handed whole to the logger thread and consumers,
 * which release it through a reference count. Reused from the session's pool.
 */
final class SessionBuffer {
    final byte[] bytes;
    final ByteBuffer bb;
    int position = WmiBufferLayout.HEADER_SIZE;
    int events;
    /** Consumers this buffer was flushed to (snapshot at flush time). */
    SimConsumer[] recipients = SimConsumer.NONE;
    /** Events the session lost since the previous delivered buffer; reported before this one's records. */
    long lostBefore;
    final AtomicInteger references = new AtomicInteger();

    SessionBuffer(int size) {
        this.bytes = new byte[size];
        this.bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    int capacity() {
        return bytes.length;
    }

    int remaining() {
        return bytes.length - position;
    }

    /** Completes the header and pads, making the buffer a valid ETW buffer. */
    void seal(long timestamp, long sequence, int loggerId) {
        Arrays.fill(bytes, position, bytes.length, WmiBufferLayout.PADDING_BYTE);
        Arrays.fill(bytes, 0, WmiBufferLayout.HEADER_SIZE, (byte) 0);
        bb.putInt(WmiBufferLayout.BUFFER_SIZE, bytes.length);
        bb.putInt(WmiBufferLayout.SAVED_OFFSET, position);
        bb.putInt(WmiBufferLayout.CURRENT_OFFSET, position);
        bb.putLong(WmiBufferLayout.TIMESTAMP, timestamp);
        bb.putLong(WmiBufferLayout.SEQUENCE_NUMBER, sequence);
        bb.putShort(WmiBufferLayout.PROCESSOR_INDEX, (short) 0);
        bb.putShort(WmiBufferLayout.LOGGER_ID, (short) loggerId);
        bb.putInt(WmiBufferLayout.STATE, WmiBufferLayout.STATE_FLUSH);
        bb.putInt(WmiBufferLayout.OFFSET, position);
        bb.putShort(WmiBufferLayout.BUFFER_FLAG, (short) WmiBufferLayout.FLAG_PROC_INDEX);
        bb.putShort(WmiBufferLayout.BUFFER_TYPE, (short) WmiBufferLayout.TYPE_GENERIC);
    }

    /** Makes the buffer empty for reuse. */
    void recycle() {
        position = WmiBufferLayout.HEADER_SIZE;
        events = 0;
        recipients = SimConsumer.NONE;
        lostBefore = 0;
        references.set(0);
    }
}
