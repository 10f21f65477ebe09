package org.etw4j.consumer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.decode.KernelSchemas;
import org.etw4j.consumer.testing.TestRecord;
import org.etw4j.RawEventRecord;
import org.junit.jupiter.api.Test;

/**
 * The .NET module of JIT-compiled methods, on hand-built CLR events (layouts of ClrEtwAll.man: MethodLoadUnloadVerbose
 * = MethodID, ModuleID, MethodStartAddress u64, MethodSize, MethodToken, MethodFlags u32, MethodNamespace,
 * MethodName, MethodSignature; ModuleLoadUnload = ModuleID, AssemblyID u64, ModuleFlags, Reserved1 u32,
 * ModuleILPath, ModuleNativePath): frames become {@code Module!Namespace.Type.Method+0xOFFSET} as in PerfView.
 */
class TraceModelClrModuleTest {

    private static final Guid RUNTIME = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    private static final Guid RUNDOWN = Guid.parse("a669021c-c450-4609-a035-5af59af4df18");
    private final List<RawEventRecord> records = new ArrayList<>();

    private static ByteBuffer buf(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] utf16z(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_16LE);
    }

    private void clr(Guid provider, int id, long time, int pid, byte[] payload) {
        records.add(TestRecord.builder(provider).id(id).timestamp(time).pid(pid).tid(1).data(payload).build());
    }

    private void method(Guid provider, int id, long time, int pid, long moduleId, long start, int size, String ns,
                        String name) {
        byte[] n1 = utf16z(ns);
        byte[] n2 = utf16z(name);
        byte[] sig = utf16z("void  ()");
        ByteBuffer b = buf(36 + n1.length + n2.length + sig.length + 2);
        b.putLong(0x1000 + start).putLong(moduleId).putLong(start).putInt(size).putInt(0x06000001).putInt(0)
                .put(n1).put(n2).put(sig).putShort((short) 9);
        clr(provider, id, time, pid, b.array());
    }

    private void module(Guid provider, int id, long time, int pid, long moduleId, String ilPath) {
        byte[] il = utf16z(ilPath);
        byte[] ni = utf16z("");
        ByteBuffer b = buf(24 + il.length + ni.length + 2);
        b.putLong(moduleId).putLong(0x77).putInt(8).putInt(0).put(il).put(ni).putShort((short) 9);
        clr(provider, id, time, pid, b.array());
    }

    private void classic(Guid provider, int opcode, long time, byte[] payload) {
        records.add(TestRecord.builder(provider).classic().version(2).opcode(opcode).timestamp(time).pid(-1).tid(-1)
                .data(payload).build());
    }

    @Test
    void jitFramesNameTheModuleTheLoaderEventsGiveForTheMethodsModuleId() {
        ByteBuffer t = buf(8 + 7 * 8 + 4).putInt(100).putInt(7);
        classic(KernelSchemas.THREAD, 3, 1, t.array());
        module(RUNTIME, 152, 2, 100, 0xAA, "C:\\app\\Contoso.App.exe");
        method(RUNTIME, 143, 3, 100, 0xAA, 0x10000, 0x100, "Contoso.App.Program", "Main");
        // A method of a module never described (loader keyword off for it): no module prefix.
        method(RUNTIME, 143, 4, 100, 0xCC, 0x30000, 0x100, "Other.Type", "Run");
        // Rundown at the end: the methods of a module come before the module's DCEnd.
        method(RUNDOWN, 144, 90, 100, 0xBB, 0x20000, 0x80, "System.String", "Concat");
        module(RUNDOWN, 154, 91, 100, 0xBB, "C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\mscorlib.dll");
        // The same ModuleID value in another process names another module.
        module(RUNTIME, 152, 5, 200, 0xBB, "C:\\other\\Fabrikam.dll");
        // A sample whose stack runs through the three methods.
        classic(KernelSchemas.PERF_INFO, 46, 10, buf(16).putLong(0x30010).putInt(7).putShort((short) 1).array());
        ByteBuffer s = buf(16 + 3 * 8).putLong(10).putInt(100).putInt(7)
                .putLong(0x30010).putLong(0x20040).putLong(0x10020);
        classic(KernelSchemas.STACK_WALK, 32, 11, s.array());

        TraceModel m = TraceModel.read(each -> records.forEach(each));
        ClrMethod main = m.method(0x10020, 100, 10);
        assertEquals(0xAA, main.moduleId());
        assertEquals("C:\\app\\Contoso.App.exe", main.modulePath());
        assertEquals("Contoso.App", main.moduleName());
        assertEquals("Contoso.App!Contoso.App.Program.Main", main.qualifiedName());
        ClrMethod concat = m.method(0x20040, 100, 10);
        assertEquals("mscorlib", concat.moduleName(), "module described after its methods (rundown order)");
        ClrMethod run = m.method(0x30010, 100, 10);
        assertNull(run.moduleName());
        assertEquals("Other.Type.Run", run.qualifiedName());
        List<String> frames = m.cpuProfile().stacks().get(0).frames().stream().map(StackFrame::name).toList();
        assertEquals(List.of("Contoso.App!Contoso.App.Program.Main+0x20", "mscorlib!System.String.Concat+0x40",
                "Other.Type.Run+0x10"), frames);
        assertEquals(3, m.methods().size());
        assertEquals("mscorlib", m.methods().get(2).moduleName());
    }
}
