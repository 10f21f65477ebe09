package org.etw4j.consumer.internal.decode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed TraceEvent baseline file (PerfView's {@code TraceEvent.Tests/Parsing/GeneralParsing.cs} output):
 * {@code EVENT <relative ms>: <Provider/Event> PID=..; TID=..; PName=..; ProceNum=..; DataLen=..; f=v; ...}
 * lines for at most 5 events of each name in time order, then {@code COUNT <name>:<n>} lines.
 *
 * <p>Immutable once parsed. Values are kept as TraceEvent printed them (thousands separators, 20-character
 * truncation with {@code ...}); {@link BaselineComparator} interprets them.
 */
record TraceEventBaseline(List<Event> events, Map<String, Integer> counts) {

    /**
     * One EVENT line.
     *
     * @param line     1-based line number in the file
     * @param timeMsec the relative time, as printed ({@code 8,184.674})
     * @param name     {@code Provider/Event}
     * @param fields   payload fields in order, values as printed
     */
    record Event(int line, String timeMsec, String name, int pid, int tid, String processName, int processor,
                 int dataLength, Map<String, String> fields) {
    }

    static TraceEventBaseline parse(Path file) throws IOException {
        List<Event> events = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("EVENT ")) {
                events.add(parseEvent(i + 1, l));
            } else if (l.startsWith("COUNT ")) {
                int colon = l.lastIndexOf(':');
                counts.put(l.substring(6, colon), Integer.parseInt(l.substring(colon + 1)));
            } else if (!l.isBlank()) {
                throw new IOException(file + ":" + (i + 1) + ": unexpected line: " + l);
            }
        }
        return new TraceEventBaseline(List.copyOf(events), counts);
    }

    static Event parseEvent(int lineNo, String l) throws IOException {
        int colon = l.indexOf(": ", 6);
        String time = l.substring(6, colon);
        int pidAt = l.indexOf(" PID=", colon);
        if (colon < 0 || pidAt < 0) {
            throw new IOException("line " + lineNo + ": not an EVENT line: " + l);
        }
        String name = l.substring(colon + 2, pidAt);
        // "k=v; " pairs; a value may itself contain ';' (file names) but a pair always ends with "; "
        // followed by the next name and '=' or by the end of the line.
        Map<String, String> pairs = new LinkedHashMap<>();
        String rest = l.substring(pidAt + 1);
        int p = 0;
        while (p < rest.length()) {
            int eq = rest.indexOf('=', p);
            if (eq < 0) {
                break;
            }
            String key = rest.substring(p, eq);
            int end = nextPairEnd(rest, eq + 1);
            pairs.put(key, rest.substring(eq + 1, end));
            p = end + 2;
        }
        int pid = Integer.parseInt(pairs.remove("PID"));
        int tid = Integer.parseInt(pairs.remove("TID"));
        String pname = pairs.remove("PName");
        int proc = Integer.parseInt(pairs.remove("ProceNum"));
        int len = Integer.parseInt(pairs.remove("DataLen"));
        return new Event(lineNo, time, name, pid, tid, pname, proc, len, pairs);
    }

    private static int nextPairEnd(String s, int from) {
        int p = from;
        while (true) {
            int semi = s.indexOf("; ", p);
            if (semi < 0) {
                return s.length();
            }
            int after = semi + 2;
            if (after >= s.length()) {
                return semi;
            }
            int eq = s.indexOf('=', after);
            int nextSemi = s.indexOf("; ", after);
            boolean looksLikeKey = eq > after && (nextSemi < 0 || eq < nextSemi)
                    && s.substring(after, eq).matches("[A-Za-z_][A-Za-z0-9_.]*");
            if (looksLikeKey) {
                return semi;
            }
            p = after;
        }
    }
}
