package org.etw4j.nativebindings.abi;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the initialised data of global objects out of GNU assembler text (x86_64-w64-mingw32-gcc -S): for
 * each label, the bytes its data directives emit, little-endian.
 *
 * <p>Test helper; stateless. Knows the directives gcc uses for constant data ({@code .byte}, {@code .value},
 * {@code .short}, {@code .word}, {@code .long}, {@code .quad}, {@code .space}, {@code .zero}) and refuses any
 * other data directive inside a labelled object, so a change in gcc's output fails loudly.
 */
final class AssemblyData {

    private static final Pattern LABEL = Pattern.compile("^([A-Za-z_][A-Za-z0-9_.$]*):\\s*$");
    private static final Pattern DIRECTIVE = Pattern.compile("^\\s*(\\.[a-z0-9]+)\\s*(.*)$");

    private AssemblyData() {
    }

    /** Bytes of every labelled object whose name starts with {@code prefix}. */
    static Map<String, byte[]> objects(String assembly, String prefix) {
        Map<String, byte[]> result = new HashMap<>();
        String current = null;
        ByteArrayOutputStream bytes = null;
        for (String line : assembly.split("\\R")) {
            Matcher label = LABEL.matcher(line);
            if (label.matches()) {
                if (current != null) {
                    result.put(current, bytes.toByteArray());
                }
                current = label.group(1).startsWith(prefix) ? label.group(1) : null;
                bytes = new ByteArrayOutputStream();
                continue;
            }
            if (current == null) {
                continue;
            }
            Matcher d = DIRECTIVE.matcher(line);
            if (!d.matches()) {
                continue;
            }
            String directive = d.group(1);
            String operand = d.group(2).trim();
            switch (directive) {
                case ".byte" -> emit(bytes, operand, 1);
                case ".value", ".short", ".word", ".2byte" -> emit(bytes, operand, 2);
                case ".long", ".4byte", ".int" -> emit(bytes, operand, 4);
                case ".quad", ".8byte" -> emit(bytes, operand, 8);
                case ".space", ".zero", ".skip" -> bytes.writeBytes(new byte[Integer.parseInt(operand.split(",")[0].trim())]);
                case ".align", ".p2align", ".balign", ".globl", ".section", ".def", ".scl", ".type", ".endef",
                     ".text", ".data", ".ident", ".file" -> {
                    // layout/bookkeeping between objects: ends nothing, emits nothing inside one
                }
                default -> throw new IllegalStateException("unexpected directive in " + current + ": " + line);
            }
        }
        if (current != null) {
            result.put(current, bytes.toByteArray());
        }
        return result;
    }

    private static void emit(ByteArrayOutputStream bytes, String operands, int size) {
        for (String operand : operands.split(",")) {
            long value = Long.decode(operand.trim());
            for (int i = 0; i < size; i++) {
                bytes.write((int) (value >>> (8 * i)) & 0xFF);
            }
        }
    }

    /** The little-endian 64-bit values of an object made of {@code long long}s. */
    static long[] longs(byte[] data) {
        if (data.length % 8 != 0) {
            throw new IllegalStateException("not a long long array: " + data.length + " bytes");
        }
        long[] values = new long[data.length / 8];
        for (int i = 0; i < values.length; i++) {
            long v = 0;
            for (int b = 7; b >= 0; b--) {
                v = (v << 8) | (data[i * 8 + b] & 0xFF);
            }
            values[i] = v;
        }
        return values;
    }
}
