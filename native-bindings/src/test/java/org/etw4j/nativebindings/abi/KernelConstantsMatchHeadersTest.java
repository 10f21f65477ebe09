package org.etw4j.nativebindings.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.etw4j.Guid;
import org.etw4j.controller.KernelEventGroup;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelTracing;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel-session constants etw-api spells itself (issue 21, item 12) against the mingw-w64 headers, compiled
 * for x64 Windows: every {@link KernelFlag} is its {@code EVENT_TRACE_FLAG_*}, the system logger mode, the two
 * TraceSetInformation classes and the CLASSIC_EVENT_ID / TRACE_PROFILE_INTERVAL layouts the FFM backend writes, and
 * {@code SystemTraceControlGuid} as the header defines it (DEFINE_GUID under INITGUID, read from the assembly).
 */
class KernelConstantsMatchHeadersTest {
    @TempDir
    Path work;

    private static MingwToolchain toolchain() {
        Optional<MingwToolchain> t = MingwToolchain.locate();
        Assumptions.assumeTrue(t.isPresent(), MingwToolchain.MISSING);
        return t.get();
    }

    @Test
    void kernelFlagsModesClassesAndLayoutsAreTheHeaders() throws Exception {
        MingwToolchain toolchain = toolchain();
        CProbe probe = new CProbe();
        for (KernelFlag f : KernelFlag.values()) {
            probe.value(f.name(), "EVENT_TRACE_FLAG_" + f.name());
        }
        probe.value("SYSTEM_LOGGER_MODE", "EVENT_TRACE_SYSTEM_LOGGER_MODE");
        probe.value("TraceStackTracingInfo", "TraceStackTracingInfo");
        probe.value("TraceSampledProfileIntervalInfo", "TraceSampledProfileIntervalInfo");
        probe.value("CLASSIC_EVENT_ID.size", "sizeof(CLASSIC_EVENT_ID)");
        probe.value("CLASSIC_EVENT_ID.Type", "offsetof(CLASSIC_EVENT_ID, Type)");
        probe.value("TRACE_PROFILE_INTERVAL.size", "sizeof(TRACE_PROFILE_INTERVAL)");
        probe.value("TRACE_PROFILE_INTERVAL.Interval", "offsetof(TRACE_PROFILE_INTERVAL, Interval)");
        CProbe.Result r = probe.compute(toolchain, work);
        for (KernelFlag f : KernelFlag.values()) {
            assertEquals(r.value(f.name()), Integer.toUnsignedLong(f.bit()), f.name());
        }
        assertEquals(0x0200_0000L, r.value("SYSTEM_LOGGER_MODE"));
        assertEquals(3, r.value("TraceStackTracingInfo"));
        assertEquals(5, r.value("TraceSampledProfileIntervalInfo"));
        assertEquals(24, r.value("CLASSIC_EVENT_ID.size"));
        assertEquals(16, r.value("CLASSIC_EVENT_ID.Type"));
        assertEquals(8, r.value("TRACE_PROFILE_INTERVAL.size"));
        assertEquals(4, r.value("TRACE_PROFILE_INTERVAL.Interval"));
    }

    @Test
    void systemTraceControlGuidIsTheHeaders() throws Exception {
        assertEquals(headerGuid(toolchain(), "SystemTraceControlGuid"), KernelTracing.SYSTEM_TRACE_CONTROL_GUID);
    }

    /**
     * The kernel group GUIDs evntrace.h defines, against etw-api's one table {@link KernelEventGroup} (the others
     * are in no SDK header: ntwmi.h is not public).
     */
    @Test
    void kernelGroupGuidsTheHeadersDefineAreTheTables() throws Exception {
        MingwToolchain toolchain = toolchain();
        assertEquals(headerGuid(toolchain, "EventTraceGuid"), KernelEventGroup.EVENT_TRACE.guid());
        assertEquals(headerGuid(toolchain, "EventTraceConfigGuid"), KernelEventGroup.EVENT_TRACE_CONFIG.guid());
    }

    /** A GUID evntrace.h defines with DEFINE_GUID, read from the initialised data INITGUID makes the compiler emit. */
    private Guid headerGuid(MingwToolchain toolchain, String name) throws Exception {
        String asm = toolchain.compileToAssembly(work, "guid-" + name,
                "#define INITGUID\n#include <windows.h>\n#include <evntrace.h>\n"
                        + "const GUID *etw4j_probe = &" + name + ";\n");
        // DEFINE_GUID under INITGUID emits the GUID's initialised data: .long Data1, .word Data2, .word Data3, 8 x .byte
        int label = asm.indexOf(name + ":");
        Assumptions.assumeTrue(label >= 0, "no data for " + name + " in:\n" + asm);
        List<Long> values = new ArrayList<>();
        for (String line : asm.substring(label).split("\n")) {
            String t = line.trim();
            if (t.startsWith(".long") || t.startsWith(".word") || t.startsWith(".value") || t.startsWith(".byte")) {
                values.add(Long.decode(t.split("\\s+", 2)[1].trim()));
            } else if (t.startsWith(".ascii")) {
                values.addAll(asciiBytes(t.substring(t.indexOf('"') + 1, t.lastIndexOf('"'))));
            }
            if (values.size() == 11) {
                break;
            }
        }
        StringBuilder s = new StringBuilder(String.format("%08x-%04x-%04x-", values.get(0) & 0xFFFF_FFFFL,
                values.get(1) & 0xFFFF, values.get(2) & 0xFFFF));
        for (int i = 3; i < 11; i++) {
            s.append(String.format("%02x", values.get(i) & 0xFF));
            if (i == 4) {
                s.append('-');
            }
        }
        return Guid.parse(s.toString());
    }

    /** The bytes of a GNU as {@code .ascii} string: octal escapes of 1-3 digits, the usual C escapes, plain chars. */
    private static List<Long> asciiBytes(String body) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\') {
                out.add((long) c);
                continue;
            }
            char n = body.charAt(++i);
            if (n >= '0' && n <= '7') {
                int v = 0;
                int digits = 0;
                while (digits < 3 && i < body.length() && body.charAt(i) >= '0' && body.charAt(i) <= '7') {
                    v = v * 8 + (body.charAt(i++) - '0');
                    digits++;
                }
                i--;
                out.add((long) v);
            } else {
                out.add((long) switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    default -> n;
                });
            }
        }
        return out;
    }
}
