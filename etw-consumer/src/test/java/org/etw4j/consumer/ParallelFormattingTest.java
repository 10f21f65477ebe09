package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.consumer.output.EventFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TraceFile#writeEvents} on worker threads writes what one thread writes, byte for byte, on every corpus
 * file in every format: batches of 7 events over 2 and 3 workers, so that on every trace the schema records
 * (EventSource manifests, MetaData events) fall into other workers' batches and must reach each worker's decoder
 * in trace order; and with a limit that ends inside a batch.
 */
class ParallelFormattingTest {

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : CorpusFiles.all()) {
            for (EventFormat f : EventFormat.values()) {
                out.add(Arguments.of(p.getFileName().toString(), p, f));
            }
        }
        return out.stream();
    }

    private static byte[] write(Path file, EventFormat format, long limit, int threads, int batch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TraceFile in = TraceFile.open(ReadSettings.DEFAULT, file)) {
            long n = in.writeEvents(format, out, limit, threads, batch, written -> { });
            assertTrue(n <= limit);
        }
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("cases")
    void workersWriteWhatOneThreadWrites(String name, Path file, EventFormat format) throws IOException {
        byte[] one = write(file, format, Long.MAX_VALUE, 0, 0);
        assertTrue(one.length > 0, name);
        assertArrayEquals(one, write(file, format, Long.MAX_VALUE, 2, 7), name + " 2 workers");
        assertArrayEquals(one, write(file, format, Long.MAX_VALUE, 3, 7), name + " 3 workers");
        byte[] firstTen = write(file, format, 10, 0, 0);
        assertArrayEquals(firstTen, write(file, format, 10, 2, 3), name + " 10 events");
        assertEquals(write(file, format, 0, 0, 0).length, write(file, format, 0, 2, 7).length, name + " none");
    }
}
