package org.etw4j.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.ReadProgress;
import org.etw4j.consumer.model.TraceModel;

/**
 * What the HTML report of one trace shows: the file's summary (header facts, providers), its records per time bucket
 * and its CPU samples with their stacks.
 *
 * <p>Immutable value; thread-safe. {@link #read(EtlFile, Consumer)} reads the file twice, {@link TraceModel}'s two
 * passes: the summary is counted during the first, the records per time bucket during the second (their range comes
 * from the first; issue 20, target 3: it read the file four times before). Memory is that of the parts: per
 * provider, per bucket, and the model's per process, thread, image and distinct stack.
 *
 * @param summary   the file's summary ({@code etw summary})
 * @param fileBytes the file's size in bytes
 * @param rate      records per time bucket
 * @param cpu       the CPU samples ({@link TraceModel#cpuProfile()})
 */
public record TraceReport(EtlSummary summary, long fileBytes, EventRate rate, CpuProfile cpu) {

    /** Providers with a series of their own in the events-per-second chart. */
    public static final int CHART_PROVIDERS = 6;

    public TraceReport {
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(rate, "rate");
        Objects.requireNonNull(cpu, "cpu");
    }

    /** Opens, reads and closes {@code etl}. */
    public static TraceReport read(Path etl) throws IOException {
        try (EtlFile f = EtlFile.open(etl)) {
            return read(f, phase -> { });
        }
    }

    /**
     * Reads an open file; {@code phase} hears the name of the step as it starts (one name, the model's, for its two
     * passes, which also count the summary and the records per second), for a progress line.
     */
    public static TraceReport read(EtlFile file, Consumer<String> phase) {
        return read(file, phase, ReadProgress.NONE);
    }

    /**
     * Reads an open file as {@link #read(EtlFile, Consumer)}, and reports how far the model's two passes are to
     * {@code model}.
     */
    public static TraceReport read(EtlFile file, Consumer<String> phase, ReadProgress model) {
        phase.accept("processes, threads, images, samples and stacks"); // the summary and rate are counted alongside
        Counting counting = new Counting(file);
        CpuProfile cpu = TraceModel.read(List.of(file), model, counting).cpuProfile();
        return new TraceReport(counting.summary(), file.size(), counting.rate(), cpu);
    }

    /** The summary during the model's first pass, the records per bucket during its second. Not thread-safe. */
    private static final class Counting implements TraceModel.PassObserver {
        private final EtlFile file;
        private final EtlSummary.Counter summaryCounter = new EtlSummary.Counter();
        private EtlSummary summary;
        private EventRate.Counter rateCounter;

        Counting(EtlFile file) {
            this.file = file;
        }

        @Override
        public void record(int pass, EtlRecordView record) {
            if (pass == 1) {
                summaryCounter.add(record);
            } else {
                rateCounter.add(record);
            }
        }

        @Override
        public void passEnded(int pass) {
            if (pass == 1) {
                summary = summaryCounter.finish(file);
                rateCounter = new EventRate.Counter(file.clock(), summary, CHART_PROVIDERS);
            }
        }

        EtlSummary summary() {
            return summary;
        }

        EventRate rate() {
            return rateCounter.finish();
        }
    }
}
