package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * {@code etw dump} output, byte for byte, in all three formats on corpus files, against goldens made by the
 * implementation before the output path was rewritten for speed (issue 11): the output of a change that is
 * meant to be faster only must not change at all.
 *
 * <p>Goldens are compact: per case the SHA-256, the byte and line counts of the whole output, and its first two
 * and last line as an excerpt a reviewer can read ({@code dump-golden.txt}). A change that alters the output on
 * purpose (a new column, a value printed differently) regenerates them deliberately with
 * {@code -Detw4j.golden.update=true} (run from the module directory) and says so in its commit; the excerpt diff
 * then shows what changed.
 */
class DumpGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/org/etw4j/cli/dump-golden.txt");
    private static final String[] FORMATS = {"jsonl", "csv", "text"};
    /** Kernel MOF, CLR (compressed, in-trace TDH metadata), TraceLogging, schema-less, primitive types, tiny. */
    private static final String[] FILES = {
        "perfview__net.4.5.2.x64.etl",
        "airbus__ShutdownPerfDiagLogger.etl",
        "airbus__AMSITrace.etl",
        "krabsetw__powershell.etl",
        "perfview__primitive-types.etl",
        "perfview__smallEtlFile.etl",
    };
    /** Cases run again with ClrEtwAll.man. */
    private static final String[] WITH_MANIFEST = {"perfview__net.4.5.2.x64.etl", "perfview__gcevents.etl"};

    @Test
    void dumpOutputIsByteIdenticalToTheGoldens() throws Exception {
        Map<String, Golden> actual = new LinkedHashMap<>();
        for (String file : FILES) {
            for (String format : FORMATS) {
                actual.put(key(file, format, "-"), run(file, format, null));
            }
        }
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        for (String file : WITH_MANIFEST) {
            for (String format : FORMATS) {
                actual.put(key(file, format, "ClrEtwAll.man"), run(file, format, man));
            }
        }
        if (Boolean.getBoolean("etw4j.golden.update")) {
            write(actual);
            return;
        }
        Map<String, Golden> expected = read();
        assertEquals(expected.keySet(), actual.keySet(), "golden cases");
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, Golden> e : expected.entrySet()) {
            Golden a = actual.get(e.getKey());
            if (!a.equals(e.getValue())) {
                differ.add(e.getKey() + "\n  expected " + e.getValue() + "\n  actual   " + a);
            }
        }
        assertTrue(differ.isEmpty(), "dump output differs from the goldens:\n" + String.join("\n", differ));
    }

    private static String key(String file, String format, String manifest) {
        return file + " " + format + " " + manifest;
    }

    private static Golden run(String file, String format, Path manifest) throws Exception {
        Path etl = SharedData.resolve("etl-corpus/" + file);
        List<String> args = new ArrayList<>(List.of("dump", "--format", format));
        if (manifest != null) {
            args.addAll(List.of("--manifest", manifest.toString()));
        }
        args.add(etl.toString());
        Digesting sink = new Digesting();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter out = new PrintWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8));
             PrintWriter e = new PrintWriter(err)) {
            code = EtwCommand.execute(out, e, args.toArray(String[]::new));
        }
        assertEquals(0, code, file + " " + format + ": " + err);
        return sink.golden();
    }

    /**
     * One case's output in short: lines, bytes, SHA-256, the first two lines and the last one.
     *
     * @param lines  number of lines
     * @param bytes  number of bytes (UTF-8)
     * @param sha256 lower-case hex digest of all bytes
     * @param head   the first two lines and the last, joined with {@code " | "} (truncated to 300 chars each)
     */
    record Golden(long lines, long bytes, String sha256, String head) {
        @Override
        public String toString() {
            return lines + " lines, " + bytes + " bytes, sha256 " + sha256 + "\n    " + head;
        }
    }

    /** Hashes and counts what is written, keeping the excerpt lines. Not thread-safe. */
    private static final class Digesting extends OutputStream {
        private final MessageDigest sha;
        private long bytes;
        private long lines;
        private final StringBuilder line = new StringBuilder();
        private final java.io.ByteArrayOutputStream current = new java.io.ByteArrayOutputStream();
        private final List<String> first = new ArrayList<>();
        private String last = "";

        Digesting() throws NoSuchAlgorithmException {
            sha = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            sha.update(b, off, len);
            bytes += len;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    lines++;
                    String s = current.toString(StandardCharsets.UTF_8);
                    s = s.length() > 300 ? s.substring(0, 300) : s;
                    if (first.size() < 2) {
                        first.add(s);
                    }
                    last = s;
                    current.reset();
                } else if (current.size() < 1200) {
                    current.write(b[i]);
                }
            }
        }

        Golden golden() {
            List<String> head = new ArrayList<>(first);
            head.add(last);
            return new Golden(lines, bytes, HexFormat.of().formatHex(sha.digest()), String.join(" | ", head));
        }
    }

    private static Map<String, Golden> read() throws IOException {
        Map<String, Golden> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(GOLDEN, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            // "file format manifest lines bytes sha256" then an indented excerpt line
            String[] p = l.split(" ");
            String head = lines.get(++i).substring(4);
            m.put(key(p[0], p[1], p[2]), new Golden(Long.parseLong(p[3]), Long.parseLong(p[4]), p[5], head));
        }
        return m;
    }

    private static void write(Map<String, Golden> goldens) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# etw dump goldens (DumpGoldenTest): file format manifest lines bytes sha256, then the first two\n")
                .append("# lines and the last one of the output (each cut at 300 chars). Regenerate deliberately with\n")
                .append("# -Detw4j.golden.update=true and say why in the commit.\n");
        for (Map.Entry<String, Golden> e : goldens.entrySet()) {
            Golden g = e.getValue();
            sb.append(e.getKey()).append(' ').append(g.lines()).append(' ').append(g.bytes()).append(' ')
                    .append(g.sha256()).append('\n').append("    ").append(g.head()).append('\n');
        }
        Files.createDirectories(GOLDEN.getParent());
        Files.writeString(GOLDEN, sb, StandardCharsets.UTF_8);
    }
}
