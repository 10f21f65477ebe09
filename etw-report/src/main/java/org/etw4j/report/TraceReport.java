package org.etw4j.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlSummary;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.ReadProgress;
import org.etw4j.consumer.model.TraceModel;

/**
 * What the HTML report of one trace shows: the file's summary (header facts, providers), its records per time bucket
 * and its CPU samples with their stacks.
 *
 * <p>Immutable value; thread-safe. {@link #read(EtlFile, Consumer)} reads the file four times: the summary pass, the
 * rate pass, and {@link TraceModel}'s two passes. Memory is that of the parts: per provider, per bucket, and the
 * model's per process, thread, image and distinct stack.
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
     * Reads an open file; {@code phase} hears the name of each step as it starts ({@code summary},
     * {@code events per second}, then one name for the model's two passes), for a progress line.
     */
    public static TraceReport read(EtlFile file, Consumer<String> phase) {
        return read(file, phase, ReadProgress.NONE);
    }

    /**
     * Reads an open file as {@link #read(EtlFile, Consumer)}, and reports how far the model's two passes are (most of
     * the time: the first two steps do not decode events) to {@code model}.
     */
    public static TraceReport read(EtlFile file, Consumer<String> phase, ReadProgress model) {
        phase.accept("summary");
        EtlSummary summary = EtlSummary.of(file);
        phase.accept("events per second");
        EventRate rate = EventRate.of(file, summary, CHART_PROVIDERS);
        phase.accept("processes, threads, images, samples and stacks");
        CpuProfile cpu = TraceModel.read(List.of(file), model).cpuProfile();
        return new TraceReport(summary, file.size(), rate, cpu);
    }
}
