package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files past 2 GiB: offsets are 64-bit throughout (the file is sparse: empty buffers with holes between
 * their headers, so the test costs a few KB of disk).
 */
class EtlLargeFileTest {
    @TempDir
    Path tmp;

    @Test
    void readsRecordsBeyondTwoGigabytes() throws IOException {
        int bufferSize = 1 << 20;
        EtlBuilder b = new EtlBuilder();
        b.bufferSize = bufferSize;
        byte[] header = b.build();   // header buffer only: BuffersWritten patched below
        long buffers = 2_100 + 2;    // past 2^31 bytes
        long length = buffers * bufferSize;
        Path p = tmp.resolve("big.etl");
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(length);
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(WmiBufferLayout.HEADER_SIZE + 0x20 + LogfileHeaderLayout.BUFFERS_WRITTEN, (int) buffers);
            raf.write(header);
            byte[] empty = new byte[WmiBufferLayout.HEADER_SIZE];
            ByteBuffer e = ByteBuffer.wrap(empty).order(ByteOrder.LITTLE_ENDIAN);
            e.putInt(WmiBufferLayout.BUFFER_SIZE, bufferSize);
            e.putInt(WmiBufferLayout.SAVED_OFFSET, WmiBufferLayout.HEADER_SIZE);
            e.putShort(WmiBufferLayout.BUFFER_FLAG, (short) WmiBufferLayout.FLAG_PROC_INDEX);
            for (long i = 1; i < buffers - 1; i++) {
                e.putShort(WmiBufferLayout.PROCESSOR_INDEX, (short) (i % 4));
                raf.seek(i * bufferSize);
                raf.write(empty);
            }
            // The last buffer, beyond 2^31, holds one record on processor 2.
            EtlBuilder last = new EtlBuilder();
            last.bufferSize = bufferSize;
            last.add(2, EtlBuilder.perfinfo(TraceHeaderTypes.PERFINFO64, 2, 0x0F, 0x2E, b.t0 + 99, new byte[] {1, 2}));
            byte[] full = last.build();
            raf.seek((buffers - 1) * bufferSize);
            raf.write(full, bufferSize, WmiBufferLayout.HEADER_SIZE + 0x20);
        } catch (IOException e) {
            assumeTrue(false, "cannot create a sparse " + length + "-byte file here: " + e);
        }
        assumeTrue(Files.size(p) == length, "sparse file not created");
        try (EtlFile f = EtlFile.open(p, EtlReadOptions.strictMode())) {
            assertEquals(buffers, f.bufferCount());
            EtlCursor c = f.cursor();
            assertTrue(c.advance());
            assertEquals(HeaderKind.SYSTEM_TRACE_HEADER, c.record().kind());
            assertTrue(c.advance());
            EtlRecordView r = c.record();
            assertEquals(HeaderKind.PERFINFO_TRACE_HEADER, r.kind());
            assertEquals(buffers - 1, r.bufferIndex());
            assertEquals((buffers - 1) * bufferSize + WmiBufferLayout.HEADER_SIZE, r.fileOffset());
            assertTrue(r.fileOffset() > Integer.MAX_VALUE);
            assertEquals(2, r.processorIndex());
            assertEquals(b.startTime + 99, r.timestampFileTime());
            assertFalse(c.advance());
        }
    }
}
