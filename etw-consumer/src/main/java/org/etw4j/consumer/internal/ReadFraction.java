package org.etw4j.consumer.internal;

import java.util.List;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlRecordView;

/**
 * How far one pass over files merged in time order is: per file, how far the last record's time is through the
 * file's time span (header start to end), weighted by file size. Files from different times merge one after the
 * other, so one time span over all of them would jump. For progress lines ({@code etw dump}, trace-model reads).
 * Not thread-safe; used by the reading thread, one per pass.
 */
public final class ReadFraction {
    private final List<EtlFile> files;
    private final double[] weight;
    private final double[] fraction;

    /** For a pass over {@code files} (merged in time order). */
    public ReadFraction(List<EtlFile> files) {
        this.files = files;
        this.weight = new double[files.size()];
        this.fraction = new double[files.size()];
        long total = 0;
        for (EtlFile f : files) {
            total += f.size();
        }
        for (int i = 0; i < weight.length; i++) {
            weight[i] = total == 0 ? 1.0 / weight.length : (double) files.get(i).size() / total;
        }
    }

    /** The fraction done (0 to 1) once {@code view}'s record is read. */
    public double at(EtlRecordView view) {
        double sum = 0;
        for (int i = 0; i < weight.length; i++) {
            EtlFile f = files.get(i);
            if (f == view.file()) {
                long start = f.header().startTime();
                long end = f.header().endTime();
                if (end > start) {
                    fraction[i] = Math.max(fraction[i],
                            Math.min(1.0, (double) (view.timestampFileTime() - start) / (end - start)));
                }
            }
            sum += weight[i] * fraction[i];
        }
        return sum;
    }
}
