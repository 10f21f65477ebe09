package org.etw4j.consumer.internal.decode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;

/**
 * The list of classic kernel events TraceEvent's {@code KernelTraceEventParser} knows, with the payload facts it
 * reads (resource {@code kernel-traceevent.txt}, generated once by {@code tools/traceevent-tables/kernel_facts.py}
 * from microsoft/perfview f3ec1b38, whose header describes the format), and the sequential layouts etw4j builds
 * from those facts. Immutable after class initialization; thread-safe; nothing to close.
 *
 * <p>A layout is built for a (payload class, version) when TraceEvent reads every byte it covers in order: each
 * fixed-offset field starts where the previous one ended with 4-byte and with 8-byte pointers, and
 * variable-length fields follow one another. Otherwise {@link #layout} says why not, and {@link KernelSchemas}
 * then needs a hand-written layout (it has one for every such class TraceEvent decodes).
 */
final class KernelTraceEventTable {

    /** One template of TraceEvent's kernel parser: {@code kind} K (classic class GUID and opcode) or M (manifest provider and id). */
    record Entry(char kind, Guid guid, int opcode, String task, String opcodeName, String payloadClass) {
        /** TraceEvent's event name (task, or task/opcode). */
        String eventName() {
            return opcodeName.isEmpty() ? task : task + "/" + opcodeName;
        }
    }

    /**
     * One property TraceEvent reads from the payload at a fixed offset (-1: after the variable-length field before
     * it); {@code payload}: one of its PayloadNames (else a property such as InitialTimeQPC it reads but does not list).
     */
    record Fact(String name, String type, int offset4, int offset8, boolean payload) {
        int offset(int pointerSize) {
            return pointerSize == 4 ? offset4 : offset8;
        }
    }

    /**
     * A layout built from the facts ({@code fields}), or why none can be ({@code why}, {@code fields} null);
     * {@code note} (or {@code null}) says which bytes of a built layout TraceEvent reads no field from.
     */
    record Layout(List<FieldSpec> fields, String why, String note) {
        Layout(List<FieldSpec> fields, String why) {
            this(fields, why, null);
        }
    }

    private static final String RESOURCE = "kernel-traceevent.txt";
    private static final KernelTraceEventTable INSTANCE = load();

    private final List<Entry> entries;
    private final Map<String, List<Integer>> versions;
    private final java.util.Set<String> unversioned;
    private final Map<String, Map<Integer, List<Fact>>> facts;
    private final Map<String, List<String>> unread;

    private KernelTraceEventTable(List<Entry> entries, Map<String, List<Integer>> versions,
                                  Map<String, Map<Integer, List<Fact>>> facts, Map<String, List<String>> unread,
                                  java.util.Set<String> unversioned) {
        this.entries = entries;
        this.unversioned = unversioned;
        this.versions = versions;
        this.facts = facts;
        this.unread = unread;
    }

    static KernelTraceEventTable get() {
        return INSTANCE;
    }

    /** Every template, in TraceEvent's order. */
    List<Entry> entries() {
        return entries;
    }

    /** The versions TraceEvent's payload class asserts (the last one stands for itself and later ones). */
    List<Integer> versions(String payloadClass) {
        return versions.getOrDefault(payloadClass, List.of(0));
    }

    /** Whether TraceEvent reads every version of this class alike (no version assertion; listed as version 0). */
    boolean unversioned(String payloadClass) {
        return unversioned.contains(payloadClass);
    }

    /** The payload facts of a class at a version, in offset order ({@code List.of()} when it reads none). */
    List<Fact> facts(String payloadClass, int version) {
        Map<Integer, List<Fact>> byVersion = facts.get(payloadClass);
        if (byVersion == null) {
            return List.of();
        }
        List<Fact> f = byVersion.get(version);
        return f == null ? List.of() : f;
    }

    /** Properties of a payload class that are not plain payload reads (computed or state lookups), with why. */
    List<String> unread(String payloadClass) {
        return unread.getOrDefault(payloadClass, List.of());
    }

    /**
     * The sequential layout of a class at a version, or why it cannot be built from the facts alone. A fact that
     * starts where the fact before it starts is a second reading of the same bytes (a bit field or a flags view)
     * and adds no field; {@link #derived} tells which.
     */
    Layout layout(String payloadClass, int version) {
        List<Fact> all = facts(payloadClass, version);
        List<FieldSpec> out = new ArrayList<>();
        List<String> gaps = new ArrayList<>();
        int c4 = 0;
        int c8 = 0;
        boolean variable = false;
        int start4 = -1;
        int start8 = -1;
        for (Fact f : all) {
            if (f.offset4() >= 0 && f.offset4() == start4 && f.offset8() == start8) {
                continue; // a second reading of the bytes of the fact before (TraceEvent's bit fields, flags views)
            }
            start4 = f.offset4();
            start8 = f.offset8();
            if (f.offset4() >= 0 && (variable || f.offset4() != c4 || f.offset8() != c8)) {
                List<FieldSpec> filler = variable ? null : filler(f.offset4() - c4, f.offset8() - c8,
                        "Unread" + (gaps.size() + 1));
                if (filler == null) {
                    return new Layout(null, "TraceEvent reads " + f.name() + " at offset " + f.offset4() + "/"
                            + f.offset8() + " (4/8-byte pointers) where the previous field ends at " + c4 + "/" + c8
                            + (variable ? " (after a variable-length field)" : ""));
                }
                gaps.add("bytes " + c4 + "-" + (f.offset4() - 1) + " (4-byte pointers) / " + c8 + "-"
                        + (f.offset8() - 1) + " (8-byte pointers), before " + f.name() + ", as Unread"
                        + (gaps.size() + 1));
                out.addAll(filler);
                c4 = f.offset4();
                c8 = f.offset8();
            }
            out.add(spec(f));
            int size4 = size(f.type(), 4);
            if (size4 < 0 || variable) {
                variable = true;
            } else {
                c4 += size4;
                c8 += size(f.type(), 8);
            }
        }
        if (gaps.isEmpty()) {
            return new Layout(List.copyOf(out), null);
        }
        List<String> listed = new ArrayList<>();
        List<String> computed = new ArrayList<>();
        for (String u : unread(payloadClass)) {
            (u.contains(" not a property ") ? listed : computed).add(u.substring(0, u.indexOf(' ')));
        }
        return new Layout(List.copyOf(out), null, "TraceEvent's " + payloadClass + " reads no field from "
                + String.join("; ", gaps)
                + (listed.isEmpty() ? "" : "; its payload names also list " + listed + ", which it has no getter for")
                + (computed.isEmpty() ? "" : "; it computes " + computed + " (from other fields, other events or a "
                        + "condition on the payload) rather than reading them at a fixed offset")
                + (listed.isEmpty() && computed.isEmpty() ? "" : "; none of those are decoded here"));
    }

    /**
     * Fields covering a gap of {@code gap4}/{@code gap8} bytes (4/8-byte pointers): {@code n} pointers and a byte
     * run with {@code gap4 = bytes + 4n} and {@code gap8 = bytes + 8n}; {@code null} when no such split exists
     * (the next fact overlaps the one before it).
     */
    private static List<FieldSpec> filler(int gap4, int gap8, String name) {
        if (gap4 < 0 || gap8 < gap4 || (gap8 - gap4) % 4 != 0) {
            return null;
        }
        int pointers = (gap8 - gap4) / 4;
        int bytes = gap4 - 4 * pointers;
        if (bytes < 0) {
            return null;
        }
        List<FieldSpec> out = new ArrayList<>();
        for (int i = 0; i < pointers; i++) {
            out.add(DataSpec.of(pointers == 1 && bytes == 0 ? name : name + "_" + (i + 1), InType.POINTER,
                    OutType.HEXINT64));
        }
        if (bytes > 0) {
            out.add(new DataSpec(pointers == 0 ? name : name + "_" + (pointers + 1), InType.BINARY, OutType.NULL,
                    null, SizeRule.of(bytes), SizeRule.none()));
        }
        return out;
    }

    /** Whether {@code f} starts where the fact before it in {@code facts} starts (see {@link #layout}). */
    static boolean derived(List<Fact> facts, Fact f) {
        int i = facts.indexOf(f);
        return i > 0 && f.offset4() >= 0 && facts.get(i - 1).offset4() == f.offset4()
                && facts.get(i - 1).offset8() == f.offset8();
    }

    /** The wire size of a fact's type, -1 when variable. */
    static int size(String type, int pointerSize) {
        if (type.startsWith("fstr")) {
            return 2 * Integer.parseInt(type.substring(4));
        }
        return switch (type) {
            case "u8" -> 1;
            case "i16", "u16", "port" -> 2;
            case "i32", "u32", "ipv4" -> 4;
            case "i64", "u64" -> 8;
            case "ptr" -> pointerSize;
            case "guid", "ipv6" -> 16;
            default -> -1;
        };
    }

    static DataSpec spec(Fact f) {
        String n = f.name();
        String t = f.type();
        if (t.startsWith("fstr")) {
            return new DataSpec(n, InType.UNICODE_STRING, OutType.NULL, null,
                    SizeRule.of(Integer.parseInt(t.substring(4))), SizeRule.none());
        }
        return switch (t) {
            case "u8" -> DataSpec.of(n, InType.UINT8);
            case "i16" -> DataSpec.of(n, InType.INT16);
            case "u16" -> DataSpec.of(n, InType.UINT16);
            case "port" -> DataSpec.of(n, InType.UINT16, OutType.PORT);
            case "i32" -> DataSpec.of(n, InType.INT32);
            case "u32" -> DataSpec.of(n, InType.UINT32);
            case "ipv4" -> DataSpec.of(n, InType.UINT32, OutType.IPV4);
            case "i64" -> DataSpec.of(n, InType.INT64);
            case "u64" -> DataSpec.of(n, InType.UINT64);
            case "ptr" -> DataSpec.of(n, InType.POINTER, OutType.HEXINT64);
            case "guid" -> DataSpec.of(n, InType.GUID);
            case "ipv6" -> new DataSpec(n, InType.BINARY, OutType.IPV6, null, SizeRule.of(16), SizeRule.none());
            case "ustr" -> DataSpec.of(n, InType.UNICODE_STRING);
            case "astr" -> DataSpec.of(n, InType.ANSI_STRING);
            default -> throw new IllegalStateException("unknown type " + t + " in " + RESOURCE);
        };
    }

    private static KernelTraceEventTable load() {
        List<Entry> entries = new ArrayList<>();
        Map<String, List<Integer>> versions = new LinkedHashMap<>();
        Map<String, Map<Integer, List<Fact>>> facts = new LinkedHashMap<>();
        Map<String, List<String>> unread = new LinkedHashMap<>();
        java.util.Set<String> unversioned = new java.util.HashSet<>();
        try (InputStream in = KernelTraceEventTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from org.etw4j.consumer.internal.decode");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] p = line.split(" ");
                switch (p[0]) {
                    case "E" -> entries.add(new Entry(p[1].charAt(0), Guid.parse(p[2]), Integer.parseInt(p[3]), p[4],
                            p[5].equals("-") ? "" : p[5], p[6]));
                    case "V" -> {
                        if (p[2].equals("*")) {
                            unversioned.add(p[1]);
                            versions.put(p[1], List.of(0));
                            continue;
                        }
                        List<Integer> v = new ArrayList<>();
                        for (int i = 2; i < p.length; i++) {
                            v.add(Integer.parseInt(p[i].replace("+", "")));
                        }
                        versions.put(p[1], List.copyOf(v));
                    }
                    case "F" -> facts.computeIfAbsent(p[1], k -> new TreeMap<>())
                            .computeIfAbsent(Integer.parseInt(p[2]), k -> new ArrayList<>())
                            .add(new Fact(p[3], p[4], p[5].equals("-") ? -1 : Integer.parseInt(p[5]),
                                    p[6].equals("-") ? -1 : Integer.parseInt(p[6]), p[7].equals("p")));
                    case "U" -> unread.computeIfAbsent(p[1], k -> new ArrayList<>())
                            .add(line.substring(line.indexOf(p[2], 2 + p[1].length())));
                    default -> throw new IllegalStateException("bad line in " + RESOURCE + ": " + line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in " + RESOURCE, e);
        }
        // fixed-offset facts in offset order; facts after a variable-length field keep their listed order after them
        facts.values().forEach(byVersion -> byVersion.replaceAll((v, l) -> ordered(l)));
        return new KernelTraceEventTable(List.copyOf(entries), versions, facts, unread,
                java.util.Set.copyOf(unversioned));
    }

    private static List<Fact> ordered(List<Fact> l) {
        List<Fact> fixed = new ArrayList<>(l.stream().filter(f -> f.offset4() >= 0).toList());
        fixed.sort(Comparator.comparingInt(Fact::offset8).thenComparingInt(Fact::offset4));
        fixed.addAll(l.stream().filter(f -> f.offset4() < 0).toList());
        return List.copyOf(fixed);
    }
}
