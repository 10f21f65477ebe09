package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

/**
 * Layout check of the built-in kernel (MOF) classes on every kernel record of the corpus: a layout that is right
 * decodes without field errors and uses exactly the bytes of the payload. The only accepted leftovers are on
 * events newer than the layout (the decoder notes "decoded with the layout of version ..."), e.g. Process
 * Defunct v5 carries 8 bytes after the v4 fields whose meaning no source here documents.
 */
class KernelSchemasCorpusTest {

    @Test
    void everyKernelRecordOfTheCorpusUsesItsPayloadExactly() throws IOException {
        Map<String, Integer> decoded = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(SharedData.resolve("etl-corpus"))) {
            files = s.filter(p -> p.toString().endsWith(".etl")).sorted().toList();
        }
        EventDecoder decoder = new EventDecoder();
        EtlRecordEvent adapter = new EtlRecordEvent();
        for (Path file : files) {
            try (EtlFile etl = EtlFile.open(file)) {
                EtlCursor c = etl.cursor();
                while (c.advance()) {
                    if (c.record().kind() == HeaderKind.EVENT_HEADER) {
                        continue;
                    }
                    DecodedEvent e = decoder.decode(adapter.of(c.record()));
                    if (e.source() != SchemaSource.KERNEL_MOF) {
                        continue;
                    }
                    String key = e.fullName() + " v" + e.version();
                    decoded.merge(key, 1, Integer::sum);
                    boolean olderLayout = e.notes().stream().anyMatch(n -> n.startsWith("decoded with the layout"));
                    if (e.hasFieldErrors() || (e.undecodedLength() > 0 && !olderLayout)) {
                        problems.add(file.getFileName() + ": " + EventFormatterAccess.text(e));
                    }
                }
            }
        }
        System.out.println("kernel events decoded per class/version: " + decoded);
        assertEquals(List.of(), problems.stream().limit(20).toList());
        int total = decoded.values().stream().mapToInt(Integer::intValue).sum();
        assertTrue(total > 100_000, "kernel records decoded: " + total);
        for (String expected : List.of("Windows Kernel/Process/DCStart v4", "Windows Kernel/Thread/DCStart v3",
                "Windows Kernel/Image/Load v2", "Windows Kernel/Image/Load v3", "Windows Kernel/DiskIO/Read v3",
                "Windows Kernel/PerfInfo/Sample v2", "Windows Kernel/StackWalk/Stack v2",
                "Windows Kernel/FileIO/FileRundown v2", "Windows Kernel/Memory/HardFault v2",
                "Windows Kernel/TcpIp/SendIPV6 v2", "Windows Kernel/EventTrace v2",
                // layouts from PerfView / LibTrace / Windows' TDH output (KernelSchemas names each source): exact
                // payload use on real records is the check that they are right
                "Windows Kernel/SystemConfig/PnP v4", "Windows Kernel/SystemConfig/Platform v2",
                "Windows Kernel/SysConfig/BuildInfo v0", "Windows Kernel/SysConfig/SystemPaths v0",
                "Windows Kernel/SysConfig/UnknownVolume v0", "Windows Kernel/Image/KernelBase v2")) {
            assertTrue(decoded.containsKey(expected), expected + " in " + decoded.keySet());
        }
    }
}
