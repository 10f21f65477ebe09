package org.etw4j.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options of {@code spark.read.format("etl")}, parsed once on the driver and shipped to the executors.
 *
 * <p>Immutable value; thread-safe; serializable. Options (names case-insensitive, as Spark passes them):
 * <ul>
 *   <li>{@code path} / {@code paths}: files, folders (their {@code *.etl} files) or globs ({@code *}, {@code ?},
 *       {@code [..]}, {@code {a,b}} in the file name part); local paths or {@code file:} URIs (the reader maps
 *       files, so every executor must see them, e.g. on a shared mount);</li>
 *   <li>{@code recursiveFileLookup} (false): folders are searched below their top level too;</li>
 *   <li>{@code mode} (PERMISSIVE), {@code columnNameOfCorruptRecord} ({@code _corrupt_record}): see
 *       {@link EtlParseMode};</li>
 *   <li>{@code splitSize} (134217728 bytes, Spark's default {@code maxPartitionBytes}): a file larger than this is
 *       read by several tasks, each a run of whole buffers of about this size; smaller files are one task each;</li>
 *   <li>{@code decode} (true): decode events (names, fields); false leaves the decoded columns null;</li>
 *   <li>{@code context} (true): before decoding, a first pass over the whole file learns what TraceEvent's
 *       TraceLog learns (processes, volume mapping, file names) and the manifests/metadata the trace carries, so
 *       every split decodes as a whole-file read (and as {@code etw dump}) does;</li>
 *   <li>{@code shareContext} (true): that pass runs once per file in each executor JVM and the file's splits there
 *       share it ({@link SharedContexts}); false makes every split run its own (as before; the rows are the same,
 *       for comparison or should the sharing ever be in doubt);</li>
 *   <li>{@code manifest}: instrumentation manifest file(s) for the decoder, separated by commas; also any option
 *       whose name starts with {@code manifest.} (several allowed);</li>
 *   <li>{@code provider}: only these providers, by GUID or (decoded) name, separated by commas;</li>
 *   <li>{@code payload} (false): add a {@code payload} column with the undecoded user data.</li>
 * </ul>
 */
record EtlOptions(List<String> paths, boolean recursive, EtlParseMode mode, String corruptColumn, long splitSize,
                  boolean decode, boolean context, boolean shareContext, List<String> manifests,
                  List<String> providers, boolean payload)
        implements Serializable {

    static final long DEFAULT_SPLIT_SIZE = 128L << 20;

    EtlOptions {
        paths = List.copyOf(paths);
        manifests = List.copyOf(manifests);
        providers = List.copyOf(providers);
        if (splitSize <= 0) {
            throw new IllegalArgumentException("option splitSize must be > 0, not " + splitSize);
        }
    }

    static EtlOptions parse(Map<String, String> raw) {
        Map<String, String> o = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        o.putAll(raw);
        List<String> paths = new ArrayList<>();
        if (o.containsKey("path")) {
            paths.add(o.get("path"));
        }
        if (o.containsKey("paths")) {
            paths.addAll(jsonStrings(o.get("paths")));
        }
        List<String> manifests = new ArrayList<>(list(o.get("manifest")));
        for (Map.Entry<String, String> e : o.entrySet()) {
            if (e.getKey().toLowerCase(Locale.ROOT).startsWith("manifest.")) {
                manifests.addAll(list(e.getValue()));
            }
        }
        return new EtlOptions(paths,
                bool(o, "recursiveFileLookup", false),
                EtlParseMode.of(o.get("mode")),
                o.getOrDefault("columnNameOfCorruptRecord", EtlColumn.CORRUPT_RECORD.defaultName()),
                o.containsKey("splitSize") ? Long.parseLong(o.get("splitSize").trim()) : DEFAULT_SPLIT_SIZE,
                bool(o, "decode", true),
                bool(o, "context", true),
                bool(o, "shareContext", true),
                manifests,
                list(o.get("provider")),
                bool(o, "payload", false));
    }

    private static boolean bool(Map<String, String> o, String key, boolean dflt) {
        String v = o.get(key);
        if (v == null) {
            return dflt;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("option " + key + ": '" + v + "' is not true or false");
        };
    }

    private static List<String> list(String v) {
        List<String> out = new ArrayList<>();
        if (v != null) {
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    /** Spark passes {@code load(a, b)} as option {@code paths}, a JSON array of strings. */
    static List<String> jsonStrings(String json) {
        List<String> out = new ArrayList<>();
        String s = json.trim();
        if (!s.startsWith("[")) {
            out.add(s);
            return out;
        }
        StringBuilder cur = null;
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (cur == null) {
                if (c == '"') {
                    cur = new StringBuilder();
                }
            } else if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 'n' -> cur.append('\n');
                    case 't' -> cur.append('\t');
                    case 'u' -> {
                        cur.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> cur.append(n);
                }
            } else if (c == '"') {
                out.add(cur.toString());
                cur = null;
            } else {
                cur.append(c);
            }
        }
        return out;
    }
}
