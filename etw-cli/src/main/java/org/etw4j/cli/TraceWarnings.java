package org.etw4j.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.etl.EtlWarning;
import org.etw4j.consumer.etl.EtlWarningListener;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The problems the .etl reader stepped over while a command read its files ({@link EtlWarning}s: a truncated
 * buffer, a malformed record...), said the same way by every command that reads traces: one line per file with
 * the count on stderr, each problem with its kind, file offset and buffer with {@code --warnings}, and the exit
 * code {@value EtwCommand#WARNINGS} (completed with warnings).
 *
 * <p>Not thread-safe: the files are read on the command's thread. A problem met again by a second pass over the
 * same file (dump, profile, timeline and report read twice or more) is the same warning and counted once; at most
 * {@value #KEPT} distinct ones are kept (a hostile file can have millions), those beyond are counted.
 */
final class TraceWarnings implements EtlWarningListener {
    /** Distinct warnings kept for the listing. */
    static final int KEPT = 10_000;

    /**
     * The {@code --warnings} option of the commands that read traces.
     *
     * <p>A picocli mixin: one instance per command line, not thread-safe.
     */
    static final class ListOption {
        /** The option's name. */
        static final String NAME = "--warnings";
        /** Its help text, shared by the annotation and {@link #addTo}. */
        static final String DESCRIPTION = "list each problem the reader stepped over in the traces "
                + "(kind, file offset, buffer); without it only their number is said";

        @Option(names = NAME, description = DESCRIPTION)
        boolean list;

        /**
         * Adds this mixin to a command whose model is built in code, as {@code @Mixin} does for annotated ones
         * (without reading this class's annotations: the JDK spins proxy classes to read them).
         */
        ListOption addTo(CommandSpec spec, String mixinName) {
            var list = CommandSpecs.<Boolean>field(() -> this.list, v -> this.list = v);
            CommandSpec mixin = CommandSpec.wrapWithoutInspection(this);
            mixin.addOption(OptionSpec.builder(NAME).type(boolean.class).description(DESCRIPTION)
                    .initialValue(this.list).getter(list).setter(list).build());
            spec.addMixin(mixinName, mixin);
            return this;
        }
    }

    private final Set<EtlWarning> kept = new LinkedHashSet<>();
    private final Map<String, Long> beyondByFile = new LinkedHashMap<>();
    /** Fingerprints of the warnings beyond {@link #KEPT}: a later pass meets them again. */
    private final LongSet beyond = new LongSet();

    /** Lenient reading options that report to this collector. */
    EtlReadOptions options() {
        return EtlReadOptions.lenient(this);
    }

    @Override
    public void onWarning(EtlWarning warning) {
        if (kept.size() < KEPT) {
            kept.add(warning);
        } else if (!kept.contains(warning) && beyond.add(fingerprint(warning))) {
            beyondByFile.merge(warning.file(), 1L, Long::sum);
        }
    }

    /** 64 bits that tell two warnings apart (kind, file, offset, buffer, message hashed together). */
    private static long fingerprint(EtlWarning w) {
        long h = w.fileOffset() * 0x9E3779B97F4A7C15L + w.bufferIndex();
        h = h * 31 + w.kind().ordinal();
        h = h * 0x9E3779B97F4A7C15L + w.file().hashCode();
        return h * 0x9E3779B97F4A7C15L + w.message().hashCode();
    }

    /**
     * A set of longs in one open-addressed array (a hostile file's hundreds of thousands of warnings in a few MB,
     * not a boxed set's tens). Not thread-safe.
     */
    private static final class LongSet {
        private long[] table = new long[1024];
        private boolean hasZero;
        private int size;

        /** Adds {@code v}; false when it was there. */
        boolean add(long v) {
            if (v == 0) {
                boolean added = !hasZero;
                hasZero = true;
                return added;
            }
            if (2 * (size + 1) > table.length) {
                long[] old = table;
                table = new long[old.length * 2];
                for (long o : old) {
                    if (o != 0) {
                        insert(o);
                    }
                }
            }
            if (insert(v)) {
                size++;
                return true;
            }
            return false;
        }

        private boolean insert(long v) {
            int mask = table.length - 1;
            int i = (int) (v ^ (v >>> 32)) * 0x9E3779B9 & mask;
            while (table[i] != 0) {
                if (table[i] == v) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            table[i] = v;
            return true;
        }
    }

    /** Distinct warnings so far. */
    long count() {
        long n = kept.size();
        for (long b : beyondByFile.values()) {
            n += b;
        }
        return n;
    }

    /**
     * Says the warnings on {@code err} ({@code "<command>: <file>: N warnings (...)"} per file, each one first when
     * {@code list}) and returns the exit code: {@value EtwCommand#WARNINGS} when there were any, else
     * {@value EtwCommand#OK}.
     */
    int report(PrintWriter err, String command, boolean list) {
        Map<String, Long> perFile = new LinkedHashMap<>();
        for (EtlWarning w : kept) {
            perFile.merge(w.file(), 1L, Long::sum);
            if (list) {
                err.println(command + ": warning: " + w.file() + ": " + w.kind() + " at offset " + w.fileOffset()
                        + " (0x" + Long.toHexString(w.fileOffset()) + ")"
                        // a whole-file warning (the header's buffer count) belongs to no buffer: say none, not "-1"
                        + (w.bufferIndex() < 0 ? "" : ", buffer " + w.bufferIndex()) + ": "
                        + w.message().replace('\n', ' '));
            }
        }
        beyondByFile.forEach((f, n) -> perFile.merge(f, n, Long::sum));
        perFile.forEach((file, n) -> err.println(command + ": " + file + ": " + n + " warning" + (n == 1 ? "" : "s")
                + " (records or buffers skipped" + (list ? (beyondByFile.containsKey(file) ? "; " + beyondByFile.get(file)
                + " not listed" : "") : "; --warnings lists them") + ")"));
        err.flush();
        return perFile.isEmpty() ? EtwCommand.OK : EtwCommand.WARNINGS;
    }
}
