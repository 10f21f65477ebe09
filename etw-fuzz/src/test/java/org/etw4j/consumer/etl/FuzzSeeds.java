package org.etw4j.consumer.etl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.etw4j.consumer.internal.decode.TdhMetadata;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.format.LogfileHeaderLayout;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.WmiBufferLayout;
import org.etw4j.testing.SharedData;

/**
 * Seed inputs for the fuzz tests, made at run time from the shared truth material ({@code ../shared/etl-corpus},
 * {@code ../shared/manifests}) and from the consumer's synthetic builders, so that nothing from the corpus is
 * copied into the repository. Lives in the reader's package to reach its package-private test builders
 * ({@link EtlBuilder}, {@link EtlRecordKindsTest#allKinds}, {@link Lznt1EtlRewriter}).
 *
 * <p>Stateless; thread-safe. Every method reads the corpus afresh (seeds are made once per fuzz JVM). Without
 * {@code ../shared} a method skips the calling test (fails on CI), as {@link SharedData} does.
 */
public final class FuzzSeeds {
    /** Largest .etl seed: the header buffer plus whole data buffers up to this size (libFuzzer mutates it whole). */
    static final int MAX_ETL_SEED = 160 << 10;
    private static final int HEADER = WmiBufferLayout.HEADER_SIZE;
    private static final int LOGFILE = HEADER + SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE;

    private FuzzSeeds() {
    }

    /** The corpus .etl files, sorted by name. */
    public static List<Path> corpusFiles() {
        Path dir = SharedData.resolve("etl-corpus");
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".etl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * .etl seeds, named: every record header kind in 64- and 32-bit files, uncompressed, Plain LZ77 and LZNT1
     * (synthetic, 4 KiB buffers), and the head of each corpus file (cut at a buffer boundary, at most
     * {@value #MAX_ETL_SEED} bytes; compressed corpus files keep their compressed buffers) plus its LZNT1 rewrite.
     */
    public static Map<String, byte[]> etlSeeds() {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        for (boolean compressed : new boolean[] {false, true}) {
            EtlBuilder b = EtlRecordKindsTest.allKinds(compressed);
            seeds.put("synthetic-all-kinds" + (compressed ? "-lz77" : ""), b.build());
            EtlBuilder b32 = EtlRecordKindsTest.allKinds(compressed);
            b32.is64 = false;
            b32.pointerSizeField = 4;
            seeds.put("synthetic-all-kinds-32bit" + (compressed ? "-lz77" : ""), b32.build());
        }
        seeds.put("synthetic-all-kinds-lznt1", Lznt1EtlRewriter.rewrite(seeds.get("synthetic-all-kinds"),
                Lznt1Encoder.Mode.BEST, false).file());
        for (Path p : corpusFiles()) {
            byte[] head = head(read(p));
            String name = p.getFileName().toString();
            seeds.put(name, head);
            try {
                seeds.put(name + "-lznt1", Lznt1EtlRewriter.rewrite(head, Lznt1Encoder.Mode.BEST, true).file());
            } catch (RuntimeException e) {
                // A head the rewriter cannot re-encode (it accepts only what the reader reads cleanly): no LZNT1 twin.
            }
        }
        return seeds;
    }

    /**
     * TraceLogging seeds: for each distinct {@code EVENT_SCHEMA_TL} metadata blob in the corpus (at most
     * {@code max}), the blob followed by the payload of the first event that carried it. The blob's own Size
     * field separates the two, as in the fuzz target.
     */
    public static List<byte[]> traceLoggingSeeds(int max) {
        List<byte[]> seeds = new ArrayList<>();
        Set<ByteBuffer> seen = new HashSet<>();
        for (Path p : corpusFiles()) {
            try (EtlFile f = EtlFile.open(p)) {
                EtlCursor c = f.cursor(EtlOrder.FILE);
                while (c.advance() && seeds.size() < max) {
                    EtlRecordView r = c.record();
                    int i = r.kind() == HeaderKind.EVENT_HEADER ? r.findExtendedData(EventHeaderLayout.EXT_EVENT_SCHEMA_TL) : -1;
                    if (i < 0) {
                        continue;
                    }
                    byte[] meta = bytes(r.extendedData(i));
                    if (seen.add(ByteBuffer.wrap(meta))) {
                        seeds.add(concat(meta, bytes(r.userData())));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return seeds;
    }

    /**
     * TDH seeds: {@code u16 length, TRACE_EVENT_INFO blob, payload}: each distinct EventInfo blob the corpus
     * carries (KernelTraceControl MetaData opcode 32, at most {@code max}), followed by the payload of the first
     * record of the event it describes when the corpus has one, else 32 zero bytes; and each EventMapInfo blob
     * (opcode 33) with length 0xFFFF, which the target reads as a map.
     */
    public static List<byte[]> tdhSeeds(int max) {
        List<byte[]> infos = new ArrayList<>();
        List<byte[]> maps = new ArrayList<>();
        Set<ByteBuffer> seen = new HashSet<>();
        for (Path p : corpusFiles()) {
            try (EtlFile f = EtlFile.open(p)) {
                EtlCursor c = f.cursor(EtlOrder.FILE);
                while (c.advance()) {
                    EtlRecordView r = c.record();
                    if (!TdhMetadata.METADATA_CLASS.equals(r.providerId())) {
                        continue;
                    }
                    byte[] blob = bytes(r.userData());
                    if (blob.length > 0xFFFE || !seen.add(ByteBuffer.wrap(blob))) {
                        continue;
                    }
                    if (r.opcode() == TdhMetadata.OPCODE_EVENT_INFO && infos.size() < max) {
                        infos.add(blob);
                    } else if (r.opcode() == TdhMetadata.OPCODE_EVENT_MAP_INFO && maps.size() < max) {
                        maps.add(blob);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        List<byte[]> seeds = new ArrayList<>();
        for (byte[] info : infos) {
            seeds.add(concat(concat(u16(info.length), info), new byte[32]));
        }
        for (byte[] map : maps) {
            seeds.add(concat(u16(0xFFFF), map));
        }
        return seeds;
    }

    /** The shared ClrEtwAll.man, whole. */
    public static byte[] clrManifest() {
        return read(SharedData.resolve("manifests/ClrEtwAll.man"));
    }

    /** The header buffer and the whole buffers that follow it, up to {@link #MAX_ETL_SEED} bytes. */
    static byte[] head(byte[] etl) {
        ByteBuffer in = ByteBuffer.wrap(etl).order(ByteOrder.LITTLE_ENDIAN);
        int logical = in.getInt(LOGFILE + LogfileHeaderLayout.BUFFER_SIZE);
        boolean compressedMode = (in.getInt(LOGFILE + LogfileHeaderLayout.LOG_FILE_MODE)
                & LogfileHeaderLayout.MODE_COMPRESSED) != 0;
        int end = Math.min(logical, etl.length);
        while (end + HEADER <= etl.length) {
            int step = compressedMode ? in.getInt(end + WmiBufferLayout.BUFFER_SIZE) : logical;
            if (step < HEADER || end + step > etl.length || end + step > MAX_ETL_SEED) {
                break;
            }
            end += step;
        }
        return Arrays.copyOf(etl, end);
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] u16(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8)};
    }
}
