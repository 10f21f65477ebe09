package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;

/**
 * A public trace recorded on Windows 11 24H2 (build 26100), committed as its project published it (a 7z archive in
 * {@code src/test/resources/recent-traces/}, source and licence beside it) and unpacked by {@link RecentTraces}.
 *
 * <p>File: {@code siemens__TraceLoggingTester.etl}, the only member of {@code ETWAnalyzer_uTest/TestData/
 * TraceLoggingTester.7z} in Siemens-Healthineers/ETWAnalyzer (commit 7c451d970da3, 2025-07-25; MIT licence,
 * "(c) 2022 Siemens Healthcare GmbH"), 42 991 616 bytes, sha256 6b6c6731d6aa9da63b223cec4fc27b87343e5791bed9764a
 * 6138c63540c03c96. 41 buffers of 1 MiB, LogFileMode 0x10001, QPC clock, kernel and TraceLogging events.
 *
 * <p>Its header buffer has the shape of issue 10 defect 1: SavedOffset 0x1b8 ends after the logfile header
 * record, Offset 0x2c0 after two more EventTrace records, the hook-0x0050 SYSTEM record (80 bytes) and a PERFINFO
 * record with hook 0x0052 (184 bytes). A reader walking to SavedOffset loses both without a word (the reader did,
 * before commit "RecordStream/EtlFile: no record dropped silently"). The record total, 172 716, is what a walk
 * of every buffer to the larger of SavedOffset and Offset with dissect.etl's advance rule ({@code (Size + 7) & ~7},
 * stop at 0xFFFFFFFF) finds; a walk to SavedOffset finds 172 714.
 */
class RecentWindowsTraceTest {

    static final String WINDOWS_11_24H2 = "siemens__TraceLoggingTester";
    static final String WINDOWS_11_24H2_SHA256 = "6b6c6731d6aa9da63b223cec4fc27b87343e5791bed9764a6138c63540c03c96";

    @Test
    void windows11HeaderBufferRecordsPastSavedOffsetAreRead() throws IOException {
        Path etl = RecentTraces.etl(WINDOWS_11_24H2, WINDOWS_11_24H2_SHA256);
        try (FileChannel ch = FileChannel.open(etl)) {
            ByteBuffer b0 = ByteBuffer.allocate(WmiBufferLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(b0, 0);
            assertEquals(0x1b8, b0.getInt(WmiBufferLayout.SAVED_OFFSET), "the shape this test is about");
            assertEquals(0x2c0, b0.getInt(WmiBufferLayout.OFFSET), "the shape this test is about");
        }
        List<EtlWarning> warnings = new ArrayList<>();
        List<String> bufferZero = new ArrayList<>();
        List<String> names = new ArrayList<>();
        EventDecoder decoder = new EventDecoder();
        EtlRecordEvent adapter = new EtlRecordEvent();
        long records = 0;
        try (EtlFile f = EtlFile.open(etl, EtlReadOptions.lenient(warnings::add))) {
            assertEquals(26100, f.header().osBuild());
            assertEquals(0x10001, f.header().logFileMode());
            assertEquals(41, f.bufferCount());
            EtlCursor c = f.cursor(EtlOrder.FILE);
            while (c.advance()) {
                EtlRecordView r = c.record();
                records++;
                if (r.bufferIndex() == 0) {
                    bufferZero.add(String.format("%s %02x hook %04x size %d at 0x%x", r.kind(), r.headerType(),
                            r.hookId(), r.size(), r.offsetInBuffer()));
                    DecodedEvent e = decoder.decode(adapter.of(r));
                    names.add(e.providerName() + "/" + e.eventName());
                }
            }
            assertEquals(records, count(f, EtlOrder.TIME), "time order delivers the same records");
        }
        assertEquals(List.of(), warnings);
        assertEquals(List.of(
                "SYSTEM_TRACE_HEADER 02 hook 0000 size 364 at 0x48",
                "SYSTEM_TRACE_HEADER 02 hook 0050 size 80 at 0x1b8",
                "PERFINFO_TRACE_HEADER " + String.format("%02x", TraceHeaderTypes.PERFINFO64) + " hook 0052 size 184 at 0x208"),
                bufferZero);
        assertEquals(List.of("Windows Kernel/EventTrace", "Windows Kernel/EventTrace/Opcode(80)",
                "Windows Kernel/EventTrace/Opcode(82)"), names);
        assertEquals(172_716, records);
    }

    private static long count(EtlFile f, EtlOrder order) {
        long n = 0;
        EtlCursor c = f.cursor(order);
        while (c.advance()) {
            n++;
        }
        return n;
    }
}
