package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The by-name getters of a reused {@link EventRecord} answer from the record's reused view when the decoder reads
 * the event in place, without building the decoded event; they must answer exactly as the decoded event (the
 * record's {@link EventRecord#copy()}, which answers from it) does: the same value, class, sign and width, the same
 * exception with the same message for a missing field or a value of another type. Checked on every record of every
 * corpus file, for every field name of the record (top-level names, dotted paths into structs) and a name no event
 * has, before the record is copied (so that the view answers while no decoded value exists yet). Every file is read
 * whole; the first record of each kind (provider, id, version, opcode, header kind) and every {@link #STRIDE}th record
 * are checked, since each getter call that throws costs a stack trace and checking all 150,000 records took a
 * minute of the suite's time.
 */
class EventRecordByNameGettersTest {

    /** A name no corpus event has. */
    private static final String MISSING = "NoSuchField";

    /** Besides the first record of each kind, one record in this many is checked. */
    private static final int STRIDE = 8;

    /** The getters by name, each as what it answered (value with its class, or exception with its message). */
    private static final List<Getter> GETTERS = List.of(
            new Getter("hasField", (e, n) -> e.hasField(n)),
            new Getter("getValue", (e, n) -> e.getValue(n)),
            new Getter("getField", (e, n) -> e.getField(n)),
            new Getter("getInt", (e, n) -> e.getInt(n)),
            new Getter("getLong", (e, n) -> e.getLong(n)),
            new Getter("getDouble", (e, n) -> e.getDouble(n)),
            new Getter("getBoolean", (e, n) -> e.getBoolean(n)),
            new Getter("getString", (e, n) -> e.getString(n)),
            new Getter("getInstant", (e, n) -> e.getInstant(n)),
            new Getter("getGuid", (e, n) -> e.getGuid(n)));

    private record Getter(String name, BiFunction<EventRecord, String, Object> call) {
        /** What the getter answered, as a comparable text: class and value (arrays by content), or the exception. */
        String outcome(EventRecord e, String field) {
            try {
                Object v = call.apply(e, field);
                return v == null ? "null" : v.getClass().getName() + ":" + text(v);
            } catch (RuntimeException x) {
                return "threw " + x.getClass().getName() + ": " + x.getMessage();
            }
        }
    }

    /** A value as text that tells every difference apart: doubles by their bits, arrays by content. */
    private static String text(Object v) {
        if (v instanceof Double d) {
            return Long.toHexString(Double.doubleToRawLongBits(d));
        }
        if (v instanceof byte[] b) {
            return Arrays.toString(b);
        }
        if (v instanceof EventField f) {
            return f + " value " + (f.value() == null ? "null" : f.value().getClass().getName() + ":" + text(f.value()))
                    + " raw " + Arrays.toString(f.raw());
        }
        return v.toString();
    }

    static Stream<Arguments> files() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : CorpusFiles.all()) {
            out.add(Arguments.of(p.getFileName().toString(), ReadSettings.TraceContext.TWO_PASSES));
        }
        // not presented: kernel events with file names read in place too
        out.add(Arguments.of("airbus__ShutdownPerfDiagLogger.etl", ReadSettings.TraceContext.NONE));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("files")
    void theGettersByNameAnswerAsTheDecodedEventDoes(String file, ReadSettings.TraceContext context) throws Exception {
        List<String> mismatches = new ArrayList<>();
        long records = 0;
        long checked = 0;
        long inPlace = 0;
        Set<String> kinds = new HashSet<>();
        long lookups = 0;
        ReadSettings settings = ReadSettings.builder().traceContext(context).build();
        try (TraceFile in = TraceFile.open(settings, CorpusFiles.file(file))) {
            while (in.hasMoreEvents() && mismatches.size() < 10) {
                EventRecord e = in.readEvent();
                records++;
                String kind = e.providerId() + "/" + e.eventId() + "/" + e.version() + "/" + e.opcode() + "/"
                        + e.headerKind();
                if (!kinds.add(kind) && records % STRIDE != 0) {
                    continue;
                }
                checked++;
                if (e.view().isInPlace()) {
                    inPlace++;
                }
                Set<String> names = new LinkedHashSet<>();
                for (int i = 0; i < e.view().fieldCount(); i++) {
                    names.add(e.view().fieldName(i));
                }
                // the struct paths, from the view's fields (in place the view has no structs: nothing decoded yet)
                for (int i = 0; i < e.view().fieldCount(); i++) {
                    if (!e.view().isInPlace()) {
                        addPaths(e.view().field(i), "", names);
                    }
                }
                names.add(MISSING);
                List<String> viewSaid = new ArrayList<>();
                for (String n : names) {
                    for (Getter g : GETTERS) {
                        viewSaid.add(g.outcome(e, n));
                    }
                }
                EventRecord c = e.copy();
                int k = 0;
                for (String n : names) {
                    for (Getter g : GETTERS) {
                        String decoded = g.outcome(c, n);
                        String view = viewSaid.get(k++);
                        lookups++;
                        if (!decoded.equals(view) && mismatches.size() < 10) {
                            mismatches.add("record " + records + " " + e.eventName() + " " + g.name() + "(" + n
                                    + "):\n  view    " + view + "\n  decoded " + decoded);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), mismatches);
        assertTrue(records > 0, file);
        System.out.printf("%s %s: %d records, %d checked (%d kinds), %d read in place, %d getter calls compared%n", file,
                context, records, checked, kinds.size(), inPlace, lookups);
        // the benchmark's files: the CLR one is mostly read in place; the kernel one is when not presented (its
        // file-name events are presented as decoded values, TraceContext.present)
        if (file.equals("perfview__net.4.5.2.x64.etl") || context == ReadSettings.TraceContext.NONE) {
            assertTrue(inPlace > checked / 2, "mostly read in place: " + inPlace + " of " + checked);
        }
    }

    /** {@code f}'s dotted paths into its structs (a struct's fields, and theirs), after {@code prefix}. */
    private static void addPaths(EventField f, String prefix, Set<String> names) {
        if (f.value() instanceof StructValue s) {
            for (EventField inner : s.fields()) {
                String path = prefix + f.name() + "." + inner.name();
                names.add(path);
                addPaths(inner, prefix + f.name() + ".", names);
            }
        }
    }
}
