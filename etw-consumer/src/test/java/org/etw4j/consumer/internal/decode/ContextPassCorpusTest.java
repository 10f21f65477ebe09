package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.etw4j.consumer.CorpusFiles;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlReadOptions;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.internal.FilePass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The first (context) pass decodes only the records {@link TraceContext#describesTrace} picks by their header and
 * skips every other payload; this proves on every corpus file (and on a merged pair) that what it learns is exactly
 * what a pass that decodes every record and offers each to {@link TraceContext#observe} learns: the same volume
 * mapping, process instances, threads, file names and DiskIO issuers ({@link TraceContext#describe()}).
 */
class ContextPassCorpusTest {

    static Stream<Arguments> traces() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : CorpusFiles.all()) {
            out.add(Arguments.of(p.getFileName().toString(), List.of(p)));
        }
        out.add(Arguments.of("merged net.4.5.2 + ShutdownPerfDiagLogger",
                List.of(CorpusFiles.file("perfview__net.4.5.2.x64.etl"),
                        CorpusFiles.file("airbus__ShutdownPerfDiagLogger.etl"))));
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traces")
    void theHeaderSelectedPassLearnsWhatDecodingEveryRecordLearns(String name, List<Path> paths) throws IOException {
        List<EtlFile> files = FilePass.open(paths, EtlReadOptions.DEFAULT);
        try {
            TraceContext selected = FilePass.learnContext(files, new EventDecoder(), false);

            TraceContext full = new TraceContext();
            EventDecoder decoder = new EventDecoder();
            FilePass pass = FilePass.over(files);
            long records = 0;
            while (pass.advance()) {
                EtlRecordEvent r = pass.record();
                full.observe(r, decoder.decode(r));
                records++;
            }
            assertTrue(records > 0, name + ": no records");
            assertEquals(full.describe(), selected.describe(), name);
            if (name.contains("net.4.5.2")) { // a kernel trace with rundown: the comparison is not of two empty tables
                assertTrue(selected.processes().processIds() > 10 && !selected.volumes().isEmpty(), selected.describe());
            }
        } finally {
            files.forEach(EtlFile::close);
        }
    }
}
