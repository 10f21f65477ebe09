package org.etw4j.consumer.etl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;
import org.etw4j.format.WmiBufferLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The buffer walk: every record a buffer holds is returned, or counted as a warning naming its offset. Synthetic
 * buffers with the record shapes of recent Windows traces (issue 10), built from the layouts in
 * {@code ../shared/docs/etw-formats.md} section 3:
 * <ul>
 * <li>Windows 11 22H2+/24H2 header buffers: after the logfile header and the EventTrace hook-0x0050 SYSTEM record,
 * two PERFINFO_TRACE_HEADER records of the EventTrace group, hook ids 0x0042 (56 bytes) and 0x0040 (57 bytes, not
 * a multiple of 8). Records start 8-aligned and advance by {@code (Size + 7) & ~7}: ntwmi.h
 * {@code DEFAULT_TRACE_ALIGNMENT 8}; dissect.etl {@code etl.py} {@code EventRecord.aligned_size} and
 * {@code Buffer.__iter__} (fox-it/dissect.etl@f59d1d9e); the corpus' buffers all walk to exactly their end this
 * way (etw-formats.md 3.2).</li>
 * <li>The end of a buffer's data: ntwmi.h calls {@code SavedOffset} (0x04) a "temp saved offset" and
 * {@code Offset} (0x30) the "offset when flushing (can overlap SavedOffset)"; dissect.etl walks to
 * {@code Offset} ({@code FilledBytes}). The corpus has them equal in every buffer; where they differ the
 * records up to the larger one are read.</li>
 * <li>Compressed buffers (PerfView relogs, LogFileMode 0x4010001): the compressed stream is records up to the data
 * end; it is decoded on to the next 4 KiB boundary, where anything but padding is reported (dissect.etl decompresses
 * it all, {@code Buffer.data}; the reader bounds that work since issue 22).</li>
 * </ul>
 */
class EtlBufferWalkTest {
    @TempDir
    Path tmp;

    static final long T0 = 1_000_000L;

    /** The EventTrace hook-0x0050 record every corpus header buffer holds: 80 bytes, all-zero 48-byte payload. */
    static byte[] eventTrace80(boolean is64, long ts) {
        return EtlBuilder.system(is64 ? TraceHeaderTypes.SYSTEM64 : TraceHeaderTypes.SYSTEM32, 2,
                SystemTraceHeaderLayout.GROUP_HEADER, 0x50, 0x10, 0x4, ts, 0, 0, new byte[48]);
    }

    /** A PERFINFO record of the EventTrace group with a recognisable payload of {@code size - 16} bytes. */
    static byte[] eventTracePerfinfo(boolean is64, int hookType, int size, long ts) {
        byte[] payload = new byte[size - SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (hookType + i);
        }
        return EtlBuilder.perfinfo(is64 ? TraceHeaderTypes.PERFINFO64 : TraceHeaderTypes.PERFINFO32, 2,
                SystemTraceHeaderLayout.GROUP_HEADER, hookType, ts, payload);
    }

    /** A Windows 11 header buffer: logfile header, hook 0x0050, then PERFINFO 0x0042 (56) and 0x0040 (57). */
    static EtlBuilder windows11(boolean is64, boolean unalignedEnd) {
        EtlBuilder b = new EtlBuilder();
        b.is64 = is64;
        b.pointerSizeField = is64 ? 8 : 4;
        b.unalignedEnd = unalignedEnd;
        b.headerBufferRecords.add(eventTrace80(is64, T0));
        b.headerBufferRecords.add(eventTracePerfinfo(is64, 0x42, 56, T0));
        b.headerBufferRecords.add(eventTracePerfinfo(is64, 0x40, 57, T0));
        b.add(0, EtlBuilder.system(is64 ? TraceHeaderTypes.SYSTEM64 : TraceHeaderTypes.SYSTEM32, 2, 3, 3, 8, 4,
                T0 + 5, 0, 0, new byte[24]));
        return b;
    }

    private Path write(byte[] bytes) throws IOException {
        Path p = Files.createTempFile(tmp, "walk", ".etl");
        Files.write(p, bytes);
        return p;
    }

    /** What one pass in file order saw: the records (copies) and the warnings. */
    record Pass(List<EtlRecord> records, List<Integer> sizes, List<EtlWarning> warnings) {
        List<Integer> hookIds() {
            return records.stream().map(EtlRecord::hookId).toList();
        }
    }

    private Pass read(byte[] bytes, EtlOrder order) throws IOException {
        List<EtlWarning> warnings = new ArrayList<>();
        List<EtlRecord> records = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        try (EtlFile f = EtlFile.open(write(bytes), EtlReadOptions.lenient(warnings::add))) {
            EtlCursor c = f.cursor(order);
            while (c.advance()) {
                records.add(c.record().copy());
                sizes.add(c.record().size());
            }
            assertEquals(warnings.size(), f.warningCount(), "every warning is counted");
        }
        return new Pass(records, sizes, warnings);
    }

    private static void putInt(byte[] b, int offset, int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
    }

    /** The pass reported exactly one warning, of this kind, at this file offset, in this buffer. */
    private static EtlWarning assertOneWarning(Pass pass, EtlWarning.Kind kind, long fileOffset, long bufferIndex) {
        assertEquals(1, pass.warnings().size(), pass.warnings().toString());
        EtlWarning w = pass.warnings().get(0);
        assertEquals(kind, w.kind(), w.toString());
        assertEquals(fileOffset, w.fileOffset(), w.toString());
        assertEquals(bufferIndex, w.bufferIndex(), w.toString());
        return w;
    }

    /** Sets both end fields of the buffer at {@code at}, SavedOffset and Offset, to {@code end}. */
    private static void setDataEnd(byte[] file, int at, int end) {
        putInt(file, at + WmiBufferLayout.SAVED_OFFSET, end);
        putInt(file, at + WmiBufferLayout.OFFSET, end);
    }

    private static int getInt(byte[] b, int offset) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(offset);
    }

    // ------------------------------------------------------------------- defect 1: PERFINFO in buffer 0

    /** Clock 2 (system time) as in the WPP and TraceLogging service logs the issue names, clock 1 (QPC) as elsewhere. */
    @ParameterizedTest(name = "64-bit={0}, unaligned end={1}, clock type={2}")
    @CsvSource({"true,false,1", "true,true,2", "false,false,2", "false,true,1"})
    void windows11HeaderBufferPerfinfoRecordsAreReturned(boolean is64, boolean unalignedEnd, int clock)
            throws IOException {
        EtlBuilder builder = windows11(is64, unalignedEnd);
        builder.clockType = clock;
        byte[] file = builder.build();
        int end = getInt(file, WmiBufferLayout.SAVED_OFFSET);
        int logfile = Short.toUnsignedInt(ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN)
                .getShort(WmiBufferLayout.HEADER_SIZE + SystemTraceHeaderLayout.SIZE));
        int first = WmiBufferLayout.HEADER_SIZE + WmiBufferLayout.align(logfile);
        assertEquals(first + 80 + 56 + (unalignedEnd ? 57 : 64), end, "the synthetic buffer has the shape asked for");
        for (EtlOrder order : EtlOrder.values()) {
            Pass pass = read(file, order);
            assertEquals(List.of(), pass.warnings(), order.toString());
            assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0040, 0x0303), pass.hookIds(), order.toString());
            EtlRecord buildLab = pass.records().get(2);
            EtlRecord rsds = pass.records().get(3);
            assertEquals(HeaderKind.PERFINFO_TRACE_HEADER, buildLab.kind());
            assertEquals(is64 ? TraceHeaderTypes.PERFINFO64 : TraceHeaderTypes.PERFINFO32, rsds.headerType());
            assertEquals(List.of(56, 57), pass.sizes().subList(2, 4));
            assertEquals(first + 80, buildLab.offsetInBuffer());
            assertEquals(first + 80 + 56, rsds.offsetInBuffer());
            assertEquals(0, rsds.bufferIndex());
            assertArrayEquals(EtlBuilder.bytes(0x40, 0x41), java.util.Arrays.copyOf(payload(rsds), 2));
            assertEquals(41, payload(rsds).length, "the odd record's user data ends at its Size, not at its padding");
            assertEquals(KernelSchemas.EVENT_TRACE, rsds.providerId());
            assertEquals(f(rsds), f(buildLab), "same timestamp as the header record");
        }
    }

    private static long f(EtlRecord r) {
        return r.fileTime();
    }

    private static byte[] payload(EtlRecord r) {
        return r.userData();
    }

    /**
     * TraceEvent has no template for EventTrace opcodes 0x40, 0x42 and 0x50 (KernelTraceEventParser registers 0, 5,
     * 8 and 32 for EventTraceTaskGuid), so it names them {@code EventTrace/Opcode(n)}: TraceEvent.cs {@code TaskName}
     * (the task name registered for the GUID) and {@code ToString(TraceEventOpcode)} ("Opcode(" + n + ")"),
     * microsoft/perfview@f3ec1b38. The payloads stay undecoded: no public source documents their layout.
     */
    @Test
    void windows11HeaderBufferRecordsDecodeAsTraceEventNamesThem() throws IOException {
        List<String> names = new ArrayList<>();
        EventDecoder decoder = new EventDecoder();
        EtlRecordEvent adapter = new EtlRecordEvent();
        try (EtlFile f = EtlFile.open(write(windows11(true, true).build()), EtlReadOptions.strictMode())) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                DecodedEvent e = decoder.decode(adapter.of(c.record()));
                names.add(e.providerName() + "/" + e.eventName() + ":" + e.payloadLength());
            }
        }
        assertEquals(List.of("Windows Kernel/EventTrace/Opcode(80):48", "Windows Kernel/EventTrace/Opcode(66):40",
                "Windows Kernel/EventTrace/Opcode(64):41", "Windows Kernel/Process/DCStart:24"), names.subList(1, 5));
    }

    @ParameterizedTest(name = "64-bit={0}")
    @ValueSource(booleans = {true, false})
    void recordsBetweenSavedOffsetAndOffsetAreReturned(boolean is64) throws IOException {
        byte[] file = windows11(is64, true).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        // SavedOffset ("temp saved offset") stops after the SYSTEM records; Offset ("when flushing") covers all.
        putInt(file, WmiBufferLayout.SAVED_OFFSET, filled - 57 - 56);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0040, 0x0303), pass.hookIds());
        assertEquals(List.of(), pass.warnings());
        // ... and the other way round.
        file = windows11(is64, true).build();
        putInt(file, WmiBufferLayout.OFFSET, filled - 57 - 56);
        assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0040, 0x0303), read(file, EtlOrder.FILE).hookIds());
    }

    // ------------------------------------------------------------------- defect 2: compressed buffers

    /** A compressed-mode file whose one data buffer holds two EventTrace opcode-80 SYSTEM records (PerfView relog). */
    static EtlBuilder relogged() {
        EtlBuilder b = new EtlBuilder();
        b.compress = true;
        b.logFileMode = 0x4010001;
        b.add(0, eventTrace80(true, T0 + 1));
        b.add(0, eventTrace80(true, T0 + 2));
        b.add(1, EtlBuilder.system(TraceHeaderTypes.SYSTEM64, 2, 3, 3, 8, 4, T0 + 3, 0, 0, new byte[24]));
        return b;
    }

    /** File offset of the data buffer {@code index} (1-based) of a compressed-mode file. */
    private static int bufferOffset(byte[] file, int index) {
        int offset = 0;
        for (int i = 0; i < index; i++) {
            offset += getInt(file, offset + WmiBufferLayout.BUFFER_SIZE);
        }
        return offset;
    }

    /** The relogged file, its data buffers Plain LZ77 (as the corpus' files) or LZNT1 (as reported for xperf). */
    static byte[] relogged(boolean lznt1) {
        byte[] file = relogged().build();
        return lznt1 ? Lznt1EtlRewriter.rewrite(file, Lznt1Encoder.Mode.BEST, true).file() : file;
    }

    @ParameterizedTest(name = "LZNT1={0}")
    @ValueSource(booleans = {false, true})
    void compressedBufferWithTwoOpcode80RecordsYieldsBoth(boolean lznt1) throws IOException {
        byte[] file = relogged(lznt1);
        int at = bufferOffset(file, 1);
        assertTrue((getInt(file, at + WmiBufferLayout.BUFFER_FLAG) & WmiBufferLayout.FLAG_COMPRESSED) != 0);
        assertEquals(List.of(0x0000, 0x0050, 0x0050, 0x0303), read(file, EtlOrder.FILE).hookIds(), "as built");
        // SavedOffset covers the first record only; Offset and the compressed stream hold both.
        putInt(file, at + WmiBufferLayout.SAVED_OFFSET, WmiBufferLayout.HEADER_SIZE + 80);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0050, 0x0303), pass.hookIds());
        assertEquals(List.of(), pass.warnings());
        assertEquals(List.of(0x0000, 0x0050, 0x0050, 0x0303), read(file, EtlOrder.TIME).hookIds());
    }

    @Test
    void compressedStreamLongerThanBothEndFieldsIsWarnedWithItsOffset() throws IOException {
        byte[] file = relogged().build();
        int at = bufferOffset(file, 1);
        setDataEnd(file, at, WmiBufferLayout.HEADER_SIZE + 80);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0303), pass.hookIds());
        // Records of a compressed buffer are located by the buffer's offset; the message names the inner one.
        EtlWarning w = assertOneWarning(pass, EtlWarning.Kind.DATA_PAST_END, at, 1);
        assertTrue(w.message().contains("0x98"), w.message());
    }

    @Test
    void compressedStreamShorterThanTheEndFieldsReadsWhatItHolds() throws IOException {
        byte[] file = relogged().build();
        int at = bufferOffset(file, 1);
        int end = WmiBufferLayout.HEADER_SIZE + 160;
        setDataEnd(file, at, end + 8);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0050, 0x0303), pass.hookIds());
        assertOneWarning(pass, EtlWarning.Kind.BAD_COMPRESSED_DATA, at, 1);
    }

    // ------------------------------------------------------------------- audit: no silent skip

    @Test
    void nonPaddingBytesAfterTheFilledLengthAreWarnedWithTheirOffset() throws IOException {
        byte[] file = windows11(true, false).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        setDataEnd(file, 0, filled - 64);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0303), pass.hookIds());
        assertOneWarning(pass, EtlWarning.Kind.DATA_PAST_END, filled - 64, 0);
    }

    @Test
    void recordsAfterAnEndOfBufferMarkerAreWarned() throws IOException {
        byte[] file = windows11(true, false).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        int at = filled - 64 - 56;
        putInt(file, at, TraceHeaderTypes.END_OF_BUFFER_MARKER);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0303), pass.hookIds());
        assertOneWarning(pass, EtlWarning.Kind.DATA_PAST_END, at + 4, 0); // the first byte that is not padding
    }

    @Test
    void aFewBytesTooFewForARecordHeaderAreWarned() throws IOException {
        byte[] file = windows11(true, false).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        // Three bytes of something after the last record, inside the filled length.
        file[filled] = 1;
        file[filled + 1] = 2;
        file[filled + 2] = 3;
        setDataEnd(file, 0, filled + 3);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0040, 0x0303), pass.hookIds());
        assertOneWarning(pass, EtlWarning.Kind.DATA_PAST_END, filled, 0);
    }

    @Test
    void paddingAfterTheFilledLengthIsQuiet() throws IOException {
        // Alignment filler (zeros) and 0xFF padding after the last record: nothing to report.
        byte[] file = windows11(true, true).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        file[filled] = 0;
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(5, pass.records().size());
        assertEquals(List.of(), pass.warnings());
    }

    @Test
    void recordCrossingTheFilledLengthIsWarnedWithItsOffset() throws IOException {
        byte[] file = windows11(true, true).build();
        int filled = getInt(file, WmiBufferLayout.OFFSET);
        setDataEnd(file, 0, filled - 1);
        Pass pass = read(file, EtlOrder.FILE);
        assertEquals(List.of(0x0000, 0x0050, 0x0042, 0x0303), pass.hookIds());
        assertOneWarning(pass, EtlWarning.Kind.BAD_RECORD, filled - 57, 0);
    }

    @ParameterizedTest(name = "compressed={0}")
    @ValueSource(booleans = {false, true})
    void oddRecordsFillingABufferToItsLastByteAreAllReturned(boolean compressed) throws IOException {
        EtlBuilder b = new EtlBuilder();
        b.bufferSize = 0x400;
        if (compressed) {
            b.compress = true;
            b.logFileMode |= LogfileHeaderLayout.MODE_COMPRESSED;
        }
        // 0x48 + 14 * 64 = 0x3C8 = 968; a 49-byte record there ends 7 bytes before 0x400 (its padding reaches the end).
        int n = (b.bufferSize - WmiBufferLayout.HEADER_SIZE) / 64;
        for (int i = 0; i < n; i++) {
            b.add(2, eventTracePerfinfo(true, 0x40, 57, T0 + i));
        }
        b.add(2, eventTracePerfinfo(true, 0x40, 49, T0 + n));
        b.breakBuffer(2);
        // A second buffer filled to exactly its last byte: 14 records of 56 then one of 64.
        for (int i = 0; i < n - 1; i++) {
            b.add(2, eventTracePerfinfo(true, 0x42, 56, T0 + 100 + i));
        }
        b.add(2, eventTracePerfinfo(true, 0x42, b.bufferSize - WmiBufferLayout.HEADER_SIZE - 56 * (n - 1), T0 + 200));
        b.unalignedEnd = true;
        Pass pass = read(b.build(), EtlOrder.FILE);
        assertEquals(List.of(), pass.warnings());
        assertEquals(1 + (n + 1) + n, pass.records().size());
        assertEquals(b.bufferSize - 49 - 7, pass.records().get(n + 1).offsetInBuffer());
        assertEquals(49, pass.sizes().get(n + 1));
        EtlRecord last = pass.records().get(2 * n + 1);
        assertEquals(b.bufferSize, last.offsetInBuffer() + pass.sizes().get(2 * n + 1), "ends at the buffer's last byte");
    }
}
