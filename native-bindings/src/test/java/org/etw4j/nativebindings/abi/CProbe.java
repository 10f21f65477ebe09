package org.etw4j.nativebindings.abi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes C constant expressions for the Windows x64 target: collects {@code offsetof}, {@code sizeof},
 * {@code __alignof__} and macro expressions, writes them as the initialiser of one {@code long long} array,
 * compiles that with x86_64-w64-mingw32-gcc {@code -S} against the mingw-w64 headers, and reads the values back
 * from the assembly. Also lays out bit-fields, by compiling initialised unions of a structure and its bytes.
 *
 * <p>Test helper, single-threaded: fill it, then call {@link #compute} once.
 */
final class CProbe {

    /** Headers every probe sees: the ETW headers as a Windows program includes them, then the SDK additions. */
    static final String PRELUDE = """
            #include <windows.h>
            #include <evntprov.h>
            #include <evntrace.h>
            #include <evntcons.h>
            #include <tdh.h>
            #include <stddef.h>
            #include "sdk-documented.h"
            """;

    private final Map<String, String> expressions = new LinkedHashMap<>();
    private final Map<String, String> definedOnly = new LinkedHashMap<>();
    private final Map<String, String[]> bitObjects = new LinkedHashMap<>();
    private final StringBuilder declarations = new StringBuilder();

    /** Adds a value: {@code expression} must be an integer constant expression. */
    void value(String key, String expression) {
        if (expressions.putIfAbsent(key, expression) != null) {
            throw new IllegalArgumentException("duplicate probe key " + key);
        }
    }

    /** Adds the value of macro {@code name} if the headers define it (see {@link Result#isDefined}). */
    void macroIfDefined(String name) {
        definedOnly.put(name, name);
    }

    /** Adds C declarations (types the probe needs) written before the values. */
    void declare(String cDeclarations) {
        declarations.append(cDeclarations).append('\n');
    }

    /**
     * Adds the bytes of a {@code cType} whose bit-field {@code member} is set to all ones and every other
     * member to zero.
     */
    void bitField(String key, String cType, String member, int bitWidth) {
        long ones = (1L << bitWidth) - 1;
        bitObjects.put(key, new String[] {cType, member, Long.toUnsignedString(ones) + "ULL"});
    }

    /** The C source this probe compiles (for failure messages). */
    String source() {
        StringBuilder c = new StringBuilder(PRELUDE).append('\n').append(declarations).append('\n');
        c.append("const long long etw4j_values[] = {\n");
        for (Map.Entry<String, String> e : expressions.entrySet()) {
            c.append("  (long long) (").append(e.getValue()).append("), /* ").append(e.getKey()).append(" */\n");
        }
        c.append("  0\n};\n");
        c.append("const long long etw4j_defined[] = {\n");
        for (String name : definedOnly.keySet()) {
            c.append("#ifdef ").append(name).append("\n  1, (long long) (").append(name).append("),\n#else\n  0, 0,\n#endif\n");
        }
        c.append("  0\n};\n");
        int i = 0;
        for (String[] b : bitObjects.values()) {
            c.append("const union { ").append(b[0]).append(" s; unsigned char b[sizeof(").append(b[0])
                    .append(")]; } etw4j_bits_").append(i++).append(" = { .s = { .").append(b[1]).append(" = ")
                    .append(b[2]).append(" } };\n");
        }
        return c.toString();
    }

    /** Compiles the probe in {@code workDir} and returns the computed values. */
    Result compute(MingwToolchain toolchain, Path workDir) throws IOException, InterruptedException {
        copySdkHeader(workDir);
        String assembly = toolchain.compileToAssembly(workDir, "abi-probe", source());
        Map<String, byte[]> objects = AssemblyData.objects(assembly, "etw4j_");
        long[] values = AssemblyData.longs(require(objects, "etw4j_values"));
        if (values.length != expressions.size() + 1) {
            throw new IllegalStateException("expected " + (expressions.size() + 1) + " values, read " + values.length);
        }
        Map<String, Long> byKey = new HashMap<>();
        int i = 0;
        for (String key : expressions.keySet()) {
            byKey.put(key, values[i++]);
        }
        long[] defined = AssemblyData.longs(require(objects, "etw4j_defined"));
        Map<String, Long> macros = new HashMap<>();
        i = 0;
        for (String name : definedOnly.keySet()) {
            if (defined[2 * i] == 1) {
                macros.put(name, defined[2 * i + 1]);
            }
            i++;
        }
        Map<String, byte[]> bits = new HashMap<>();
        i = 0;
        for (String key : bitObjects.keySet()) {
            bits.put(key, require(objects, "etw4j_bits_" + i++));
        }
        return new Result(byKey, macros, bits);
    }

    /** Names of all macros the probe's headers define ({@code gcc -E -dM}). */
    static List<String> definedMacros(MingwToolchain toolchain, Path workDir) throws IOException, InterruptedException {
        copySdkHeader(workDir);
        String out = toolchain.macroDefinitions(workDir, "abi-macros", PRELUDE);
        List<String> names = new ArrayList<>();
        for (String line : out.split("\\R")) {
            if (line.startsWith("#define ")) {
                String rest = line.substring("#define ".length());
                int end = 0;
                while (end < rest.length() && (Character.isLetterOrDigit(rest.charAt(end)) || rest.charAt(end) == '_')) {
                    end++;
                }
                names.add(rest.substring(0, end));
            }
        }
        return names;
    }

    private static void copySdkHeader(Path workDir) throws IOException {
        try (InputStream in = CProbe.class.getResourceAsStream("sdk-documented.h")) {
            if (in == null) {
                throw new IOException("test resource sdk-documented.h missing");
            }
            Files.write(workDir.resolve("sdk-documented.h"), in.readAllBytes());
        }
    }

    private static byte[] require(Map<String, byte[]> objects, String name) {
        byte[] data = objects.get(name);
        if (data == null) {
            throw new IllegalStateException("no object " + name + " in the compiler's assembly output");
        }
        return data;
    }

    /** Values computed by the compiler. */
    record Result(Map<String, Long> values, Map<String, Long> macros, Map<String, byte[]> bitObjects) {

        long value(String key) {
            Long v = values.get(key);
            if (v == null) {
                throw new IllegalArgumentException("no probe value " + key);
            }
            return v;
        }

        boolean isDefined(String macro) {
            return macros.containsKey(macro);
        }
    }
}
