package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link TraceContext}: drive-letter paths from the trace's own volume mapping, process names from its process
 * events, file names behind file keys; and the kernel flags and enums named as TraceEvent names them
 * ({@link KernelFieldNames}), on synthetic kernel records laid out as the MS Learn MOF classes say.
 */
class TraceContextTest {

    private final EventDecoder decoder = new EventDecoder();

    private static TestRecord kernel(Guid eventClass, int opcode, int version, int pid, int tid, long time,
                                     byte[] payload) {
        return TestRecord.builder(eventClass).classic().opcode(opcode).version(version).pid(pid).tid(tid)
                .timestamp(time).data(payload).build();
    }

    static TestRecord volumeMapping(String nt, String dos, long time) {
        return kernel(KernelSchemas.SYS_CONFIG, 35, 0, 0, 0, time, new Bytes().utf16z(nt).utf16z(dos).get());
    }

    static TestRecord systemPaths(String windows, long time) {
        return kernel(KernelSchemas.SYS_CONFIG, 33, 0, 0, 0, time,
                new Bytes().utf16z(windows + "system32").utf16z(windows).get());
    }

    /** Image_Load v3 DCStart (opcode 3) or Load (10). */
    static TestRecord image(int opcode, int pid, String fileName, long time) {
        byte[] p = new Bytes().u64(0x7ff800000000L).u64(0x1000).u32(pid).u32(0).u32(0).u8(0).u8(0).u16(0)
                .u64(0).u32(0).u32(0).u32(0).u32(0).utf16z(fileName).get();
        return kernel(KernelSchemas.IMAGE, opcode, 3, pid, -1, time, p);
    }

    /** Process_V4_TypeGroup1: Start 1, Stop 2, DCStart 3, DCStop 4; an empty SID. */
    static TestRecord process(int opcode, int pid, int parent, String image, String commandLine, long time) {
        byte[] p = new Bytes().u64(0xffffa0000000L + pid).u32(pid).u32(parent).u32(1).u32(259).u64(0x1000)
                .u32(0).u32(0).ansiz(image).utf16z(commandLine).utf16z("").utf16z("").get();
        return kernel(KernelSchemas.PROCESS, opcode, 4, opcode == 1 ? parent : pid, -1, time, p);
    }

    /** Thread_V2_TypeGroup1. */
    static TestRecord thread(int opcode, int pid, int tid, long time) {
        Bytes b = new Bytes().u32(pid).u32(tid);
        for (int i = 0; i < 7; i++) {
            b.u64(0);
        }
        return kernel(KernelSchemas.THREAD, opcode, 2, pid, tid, time, b.u32(0).get());
    }

    /** SampledProfile (PerfInfo/Sample 46): PERFINFO records carry no process or thread id in their header. */
    static TestRecord sample(int tid, long time) {
        return kernel(KernelSchemas.PERF_INFO, 46, 2, -1, -1, time,
                new Bytes().u64(0xfffff80000001000L).u32(tid).u16(1).u16(0).get());
    }

    /** FileIo_Name FileRundown (36). */
    static TestRecord fileRundown(long fileKey, String name, long time) {
        return kernel(KernelSchemas.FILE_IO, 36, 2, 0, 0, time, new Bytes().u64(fileKey).utf16z(name).get());
    }

    /** DiskIo_TypeGroup1 v2 Read (10). */
    static TestRecord diskRead(long irpFlags, long fileKey, long time) {
        byte[] p = new Bytes().u32(0).u32(irpFlags).u32(4096).u32(0).u64(8192).u64(fileKey).u64(0xffff1234L)
                .u64(5000).get();
        return kernel(KernelSchemas.DISK_IO, 10, 2, 4, 44, time, p);
    }

    /** FileIo_Create v3 (64). */
    static TestRecord fileCreate(long createOptions, long attributes, long share, String path, long time) {
        byte[] p = new Bytes().u64(0xffff0001L).u64(0xffff0002L).u32(77).u32(createOptions).u32(attributes)
                .u32(share).utf16z(path).get();
        return kernel(KernelSchemas.FILE_IO, 64, 3, 3988, 77, time, p);
    }

    private DecodedEvent pass(TraceContext c, TestRecord r) {
        return c.observeAndPresent(r, decoder.decode(r));
    }

    @Test
    void ntPathsBecomeDriveLetterPathsByTheTracesOwnVolumeMapping() {
        TraceContext c = new TraceContext();
        pass(c, volumeMapping("\\??\\", "", 1));
        pass(c, volumeMapping("\\SystemRoot\\", "C:\\Windows\\", 1));
        pass(c, volumeMapping("\\Device\\HarddiskVolume2\\", "C:\\", 1));
        pass(c, volumeMapping("\\Device\\HarddiskVolume2\\", "Z:\\", 1)); // recorded later: the first one wins
        pass(c, volumeMapping("\\Device\\HarddiskVolume3\\", "D:\\", 1));

        DecodedEvent ntdll = pass(c, image(3, 4, "\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll", 2));
        EventField f = ntdll.field("FileName");
        assertEquals("\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll", f.value());
        assertEquals("C:\\Windows\\System32\\ntdll.dll", f.label());
        assertEquals(EventField.LabelKind.DOS_PATH, f.labelKind());
        assertEquals("\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll", f.ntPath());
        assertEquals(List.of(), ntdll.notes());

        // prefixes compare without regard to case; the rest of the path stays as written
        assertEquals("D:\\Tools\\X.exe", pass(c, image(10, 4, "\\device\\HARDDISKVOLUME3\\Tools\\X.exe", 3))
                .field("FileName").label());
        assertEquals("C:\\Windows\\system32\\ntoskrnl.exe",
                pass(c, image(3, 0, "\\SystemRoot\\system32\\ntoskrnl.exe", 3)).field("FileName").label());
        assertEquals("C:\\x.sys", pass(c, image(3, 0, "\\??\\C:\\x.sys", 3)).field("FileName").label());
        // already a drive-letter path, or a UNC path: unchanged, no label
        EventField plain = pass(c, image(3, 4, "C:\\Windows\\a.dll", 3)).field("FileName");
        assertNull(plain.label());
        assertEquals(EventField.LabelKind.NONE, plain.labelKind());
        // text form shows the drive-letter path
        assertTrue(EventFormatterAccess.text(ntdll).contains(" FileName=C:\\Windows\\System32\\ntdll.dll;"),
                EventFormatterAccess.text(ntdll));
    }

    /**
     * A FileIO Read (FileIo_ReadWrite v3, opcode 67: offset, IRP, file object, file key, thread, size, flags) names
     * no file: presenting it keeps every field and adds no note, so a view shows it in place with its process,
     * exactly as the decoded event is presented. Failed before: every event of a provider with file-name fields
     * (FileIO, Image, Process) was copied to a decoded value, whether or not it carried such a field.
     */
    @Test
    void aFileIoEventWithoutAFileNameIsPresentedInPlace() {
        TraceContext c = new TraceContext();
        pass(c, process(3, 3988, 4, "svc.exe", "svc.exe", 1));
        TestRecord read = kernel(KernelSchemas.FILE_IO, 67, 3, 3988, 77, 2, new Bytes().u64(8192).u64(0xffff0003L)
                .u64(0xffff0001L).u64(0xffff0002L).u32(77).u32(4096).u32(0x60900).get());
        EventView view = new EventView(decoder).decode(read);
        assertTrue(view.isInPlace(), () -> "decoded in place: " + view.copy() + " " + view.notes());
        c.present(read, view);
        assertTrue(view.isInPlace(), "presented in place");
        DecodedEvent presented = c.present(read, decoder.decode(read));
        assertEquals(presented, view.copy());
        assertEquals(3988, view.process().processId());
        assertEquals(EventFormatterAccess.text(presented), EventFormatterAccess.text(view.copy()));
    }

    @Test
    void systemPathsMapTheWindowsDirectory() {
        TraceContext c = new TraceContext();
        pass(c, systemPaths("C:\\WINDOWS\\", 1));
        assertEquals("C:\\WINDOWS\\System32\\a.dll",
                pass(c, image(3, 4, "\\Windows\\System32\\a.dll", 2)).field("FileName").label());
    }

    @Test
    void anNtPathTheTraceDoesNotMapIsKeptAndSaidSo() {
        TraceContext c = new TraceContext();
        DecodedEvent e = pass(c, image(10, 4, "\\Device\\HarddiskVolume7\\a.dll", 2));
        EventField f = e.field("FileName");
        assertEquals("\\Device\\HarddiskVolume7\\a.dll", f.value());
        assertNull(f.label());
        assertEquals(EventField.LabelKind.UNMAPPED_NT_PATH, f.labelKind());
        assertEquals("\\Device\\HarddiskVolume7\\a.dll", f.ntPath());
        assertEquals(List.of("FileName: NT path; the trace recorded no volume mapping for it"), e.notes());
        assertTrue(EventFormatterAccess.text(e).endsWith(
                " FileName=\\Device\\HarddiskVolume7\\a.dll (no volume mapping recorded);"), EventFormatterAccess.text(e));
        String json = EventFormatterAccess.json(e);
        assertTrue(json.contains("{\"name\":\"FileName\",\"type\":\"win:UnicodeString\","
                + "\"value\":\"\\\\Device\\\\HarddiskVolume7\\\\a.dll\",\"labelKind\":\"UNMAPPED_NT_PATH\"}"), json);
        assertTrue(json.contains("\"notes\":[\"FileName: NT path; the trace recorded no volume mapping for it\"]"),
                json);
    }

    @Test
    void processNamesFromTheWholeTraceAsTraceLogShowsThem() {
        TraceContext c = new TraceContext();
        List<TestRecord> trace = List.of(
                volumeMapping("\\Device\\HarddiskVolume2\\", "C:\\", 0),
                // logged before the rundown names process 3988
                kernel(KernelSchemas.EVENT_TRACE, 8, 0, 3988, 3780, 5, new byte[0]),
                process(3, 0, 0, "Idle", "", 10),
                process(3, 3988, 2876, "PerfView.exe", "PerfView.exe collect", 11),
                image(3, 3988, "\\Device\\HarddiskVolume2\\Tools\\PerfView.exe", 12),
                thread(3, 3988, 3780, 13),
                thread(3, 0, 0, 13),
                sample(3780, 20),
                sample(0, 21),
                process(2, 3988, 2876, "PerfView.exe", "", 30),
                process(1, 3988, 700, "notepad.exe", "notepad", 40),
                kernel(KernelSchemas.EVENT_TRACE, 8, 0, 3988, 1, 50, new byte[0]));
        for (TestRecord r : trace) {
            c.learn(r, decoder);
        }
        ProcessInfo early = c.present(trace.get(1), decoder.decode(trace.get(1))).process();
        assertEquals(new ProcessInfo(3988, 2876, "PerfView", "PerfView.exe", "C:\\Tools\\PerfView.exe",
                "\\Device\\HarddiskVolume2\\Tools\\PerfView.exe", "PerfView.exe collect", 1), early);
        // Process events belong to the process they describe (TraceEvent's PID), not to the logging process
        assertEquals("Idle", c.present(trace.get(2), decoder.decode(trace.get(2))).process().name());
        // records without ids: the payload's thread, through the thread events
        assertEquals("PerfView", c.present(trace.get(7), decoder.decode(trace.get(7))).process().name());
        assertEquals("Idle", c.present(trace.get(8), decoder.decode(trace.get(8))).process().name());
        // the id reused by a process started later names that one from its start on
        assertEquals("notepad", c.present(trace.get(11), decoder.decode(trace.get(11))).process().name());
        assertEquals(new ProcessInfo(3988, 700, "notepad", "notepad.exe", null, null, "notepad", 1),
                c.processes().find(3988, 40));
        assertEquals("PerfView", c.processes().find(3988, 39).name());
        // unknown process: none
        assertNull(c.processes().find(1234, 40));
        assertNull(c.present(sample(999, 60), decoder.decode(sample(999, 60))).process());
    }

    @Test
    void presentersOfOneLearnedContextPresentAsItDoesFromOtherThreadsAndItLearnsNoMore() throws Exception {
        TraceContext c = new TraceContext();
        List<TestRecord> trace = List.of(
                volumeMapping("\\Device\\HarddiskVolume2\\", "C:\\", 0),
                process(3, 3988, 2876, "PerfView.exe", "PerfView.exe collect", 11),
                image(3, 3988, "\\Device\\HarddiskVolume2\\Tools\\PerfView.exe", 12),
                thread(3, 3988, 3780, 13),
                fileRundown(0x77, "\\Device\\HarddiskVolume2\\data.bin", 14),
                sample(3780, 20),
                diskRead(0, 0x77, 21));
        for (TestRecord r : trace) {
            c.learn(r, decoder);
        }
        List<String> expected = new java.util.ArrayList<>();
        for (TestRecord r : trace) {
            expected.add(EventFormatterAccess.json(c.present(r, decoder.decode(r))));
        }
        List<TraceContext> presenters = List.of(c.presenter(), c.presenter(), c.presenter(), c.presenter());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<List<String>>> runs = new java.util.ArrayList<>();
            for (TraceContext p : presenters) {
                runs.add(pool.submit(() -> {
                    List<String> out = new java.util.ArrayList<>();
                    for (int i = 0; i < 200; i++) {
                        out.clear();
                        for (TestRecord r : trace) {
                            out.add(EventFormatterAccess.json(p.present(r, decoder.decode(r))));
                        }
                    }
                    return out;
                }));
            }
            for (java.util.concurrent.Future<List<String>> run : runs) {
                assertEquals(expected, run.get());
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(expected.get(6).contains("C:\\\\data.bin"), expected.get(6));
        assertEquals("PerfView", presenters.get(0).present(trace.get(5), decoder.decode(trace.get(5))).process()
                .name());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> c.learn(trace.get(1), decoder));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> presenters.get(1).observe(trace.get(1), decoder.decode(trace.get(1))));
    }

    @Test
    void processNameAndImagePathInJson() {
        TraceContext c = new TraceContext();
        pass(c, process(3, 4, 0, "System", "", 1));
        DecodedEvent e = pass(c, image(3, 4, "C:\\Windows\\System32\\ntdll.dll", 2));
        String json = EventFormatterAccess.json(e);
        assertTrue(json.contains(",\"process\":{\"id\":4,\"name\":\"System\",\"imageFileName\":\"System\",\"parentId\":0}"), json);
    }

    @Test
    void diskIoGetsTheFileNameOfItsKeyAndItsIrpFlagsByName() {
        TraceContext c = new TraceContext();
        pass(c, volumeMapping("\\Device\\HarddiskVolume2\\", "C:\\", 0));
        // the name comes from the closing rundown, after the I/O (as in TraceEvent's baselines)
        TestRecord read = diskRead(0x20043, 0xfffff8a0045ffc50L, 10);
        TestRecord none = diskRead(0, 0x1234, 11);
        List<TestRecord> trace = List.of(read, none, fileRundown(0xfffff8a0045ffc50L,
                "\\Device\\HarddiskVolume2\\Windows\\System32\\config\\SOFTWARE", 20));
        for (TestRecord r : trace) {
            c.learn(r, decoder);
        }
        DecodedEvent e = c.present(read, decoder.decode(read));
        EventField flags = e.field("IrpFlags");
        assertEquals(0x20043L, flags.value()); // the raw value stays
        assertEquals("Nocache|MountCompletion|SynchronousPagingIO", flags.label());
        assertEquals(EventField.LabelKind.FLAGS, flags.labelKind());
        assertEquals(List.of("Nocache", "MountCompletion", "SynchronousPagingIO"), flags.flagNames());
        EventField priority = e.fields().get(e.fields().indexOf(flags) + 1);
        assertEquals(EventField.of("Priority", InType.UINT8, OutType.NULL, 1, "Verylow"), priority);
        EventField name = e.fields().get(e.fields().size() - 1);
        assertEquals("FileName", name.name());
        assertEquals("\\Device\\HarddiskVolume2\\Windows\\System32\\config\\SOFTWARE", name.value());
        assertEquals("C:\\Windows\\System32\\config\\SOFTWARE", name.label());

        DecodedEvent zero = c.present(none, decoder.decode(none));
        assertEquals("None", zero.field("IrpFlags").label());
        assertEquals("Notset", zero.field("Priority").label());
        assertNull(zero.field("FileName")); // no FileIO event named key 0x1234
        // the decoder alone already names the flags (no context needed)
        assertEquals("Nocache|MountCompletion|SynchronousPagingIO", decoder.decode(read).field("IrpFlags").label());
    }

    @Test
    void createOptionsSplitsOutTheDispositionAndShareAccessIsAFlagSet() {
        DecodedEvent e = decoder.decode(fileCreate(0x01200020L, 0x80, 7, "\\Device\\HarddiskVolume2\\a.txt", 1));
        List<String> names = e.fields().stream().map(EventField::name).toList();
        assertEquals(List.of("IrpPtr", "FileObject", "TTID", "CreateOptions", "CreateDisposition", "FileAttributes",
                "ShareAccess", "OpenPath"), names);
        EventField options = e.field("CreateOptions");
        assertEquals(0x200020L, options.value());
        assertEquals("FILE_SYNCHRONOUS_IO_NONALERT|FILE_OPEN_REPARSE_POINT", options.label());
        assertEquals(EventField.of("CreateDisposition", InType.UINT8, OutType.NULL, 1, "OPEN_EXISTING"),
                e.field("CreateDisposition"));
        assertEquals("Normal", e.field("FileAttributes").label());
        assertEquals(List.of("Read", "Write", "Delete"), e.field("ShareAccess").flagNames());
        assertEquals("Read|Write|Delete", e.field("ShareAccess").label());
        // the same rendering in every form: text label, JSON name list plus the raw number
        assertTrue(EventFormatterAccess.text(e).contains(" ShareAccess=Read|Write|Delete;"), EventFormatterAccess.text(e));
        String json = EventFormatterAccess.json(e);
        assertTrue(json.contains("{\"name\":\"ShareAccess\",\"type\":\"win:UInt32\",\"value\":7,"
                + "\"label\":\"Read|Write|Delete\",\"labelKind\":\"FLAGS\",\"flags\":[\"Read\",\"Write\",\"Delete\"]}"),
                json);
        DecodedEvent attrs0 = decoder.decode(fileCreate(0, 0, 0, "x", 1));
        assertEquals("0", attrs0.field("FileAttributes").label());
        assertEquals("None", attrs0.field("ShareAccess").label());
        assertEquals("SUPERSEDE", attrs0.field("CreateDisposition").label());
    }

    @Test
    void manifestBitMapsAreFlagSetsAndKeepTheirNames() throws Exception {
        String man = """
                <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
                 <instrumentation><events>
                  <provider name="Demo-Flags" guid="{11111111-2222-3333-4444-555555555556}">
                   <maps><bitMap name="Perm"><map value="0x1" message="Read"/><map value="0x4" message="Exec"/>
                   </bitMap></maps>
                   <templates><template tid="T"><data name="P" inType="win:UInt32" map="Perm"/></template></templates>
                   <events><event value="1" template="T"/></events>
                  </provider></events></instrumentation>
                </instrumentationManifest>""";
        ManifestRegistry reg = new ManifestRegistry();
        ManifestParser.parse(man.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST).forEach(reg::register);
        TestRecord r = TestRecord.builder(Guid.parse("11111111-2222-3333-4444-555555555556")).id(1)
                .data(new Bytes().u32(0x0d).get()).build();
        EventField p = new EventDecoder(reg).decode(r).field("P");
        assertEquals("Read|Exec|0x8", p.label());
        assertEquals(List.of("Read", "Exec", "0x8"), p.flagNames());
    }
}
