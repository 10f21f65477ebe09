package org.etw4j.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.etw4j.testing.SharedData;

/**
 * The report of {@code perfview__net.4.5.2.x64.etl} (the corpus's trace with CPU samples and stacks), read once per
 * test JVM: reading it is four passes over 4.9 MB, seconds on a busy machine, and several test classes need it.
 *
 * <p>Thread-safe (initialized on first use by the class loader's lock); the report is immutable.
 */
final class CorpusReports {
    private CorpusReports() {
    }

    /** The report of perfview__net.4.5.2.x64.etl (skipped or failed like {@link SharedData} without ../shared). */
    static TraceReport net452() {
        SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl");
        return Net452.REPORT;
    }

    private static final class Net452 {
        static final TraceReport REPORT;

        static {
            try {
                REPORT = TraceReport.read(SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
