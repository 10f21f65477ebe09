package org.etw4j.nativebindings.abi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Optional;

/**
 * Writes the C that checks Java downcall descriptors against the Windows headers' prototypes, for
 * x86_64-w64-mingw32-gcc {@code -Werror} ({@link MingwToolchain#compileStrictly}): the source compiles if and
 * only if every {@link FunctionDescriptor} has the prototype's parameter count and, at each position and for the
 * return value, the same kind of value (integer, pointer, floating point, structure by value) of the same size.
 *
 * <p>For each function {@code F} with Java descriptor {@code (r)(p0, p1, ...)} and header prototype
 * {@code R F(T0, T1, ...)}, it writes:
 * <ul>
 *   <li>per position present on both sides, {@code typedef __typeof__(Ti) etw4j_F_pi;} and a
 *       {@code _Static_assert} that {@code Ti}'s kind (gcc's {@code __builtin_classify_type}) and {@code sizeof}
 *       are what {@code pi} says, with a message naming function, position, C type and Java layout;</li>
 *   <li>per position only Java has (extra parameters, or a value returned where C returns {@code void}), the C
 *       type the Java layout stands for ({@code int}, {@code long long}, {@code void *}, {@code double}, ...), and
 *       {@code void} for a Java {@code void} return;</li>
 *   <li>{@code etw4j_F_r (WINAPI *const etw4j_F)(etw4j_F_p0, ...) = F;}: an initialisation that type-checks
 *       only when the pointer's type is the prototype's (same count, compatible types), so a Java descriptor
 *       with more or fewer parameters, or a {@code void} against a value, is a compile error; so is a misread
 *       prototype.</li>
 * </ul>
 * Signedness is not compared: Java has no unsigned layouts, and FFM passes the same bits either way.
 *
 * <p>Test helper; stateless.
 */
final class SignatureCheck {

    /**
     * One downcall: the Java descriptor and the header prototype it must match; {@code label} names its C
     * declarations and messages (the function's name, or a variant's name when one source checks several
     * descriptors of one function).
     */
    record Downcall(String label, String name, FunctionDescriptor descriptor, HeaderPrototypes.Prototype prototype) {

        static Downcall of(String name, FunctionDescriptor descriptor, HeaderPrototypes.Prototype prototype) {
            return new Downcall(name, name, descriptor, prototype);
        }

        /** The line that initialises the function pointer: a count or return mismatch is reported there. */
        String initialiserMarker() {
            return "(WINAPI *const etw4j_" + label + ")(";
        }
    }

    /** Kind macros: gcc's type classes (typeclass.h: 1 integer, 2 char, 3 enum, 4 boolean, 5 pointer, 8 real, 12 record, 13 union). */
    static final String MACROS = """
            #define ETW4J_CLASS(T) __builtin_classify_type(*(T *) 0)
            #define ETW4J_IS_INTEGER(T) (ETW4J_CLASS(T) == 1 || ETW4J_CLASS(T) == 2 || ETW4J_CLASS(T) == 3 || ETW4J_CLASS(T) == 4)
            #define ETW4J_IS_POINTER(T) (ETW4J_CLASS(T) == 5)
            #define ETW4J_IS_FLOATING(T) (ETW4J_CLASS(T) == 8)
            #define ETW4J_IS_AGGREGATE(T) (ETW4J_CLASS(T) == 12 || ETW4J_CLASS(T) == 13)
            #define ETW4J_EXPECT(T, KIND, SIZE, WHY) _Static_assert(ETW4J_IS_##KIND(T) && sizeof(T) == (SIZE), WHY)
            """;

    private SignatureCheck() {
    }

    /** The C source checking {@code downcalls} (headers from {@link CProbe#PRELUDE}). */
    static String source(List<Downcall> downcalls) {
        StringBuilder c = new StringBuilder(CProbe.PRELUDE).append('\n').append(MACROS).append('\n');
        for (Downcall d : downcalls) {
            append(c, d);
        }
        return c.toString();
    }

    private static void append(StringBuilder c, Downcall d) {
        String f = d.label();
        HeaderPrototypes.Prototype proto = d.prototype();
        c.append("/* ").append(f).append(": C ").append(proto.c()).append(" (").append(proto.declaredAt())
                .append(")\n   Java ").append(d.descriptor()).append(" */\n");
        String ret = "etw4j_" + f + "_r";
        Optional<MemoryLayout> javaReturn = d.descriptor().returnLayout();
        if (javaReturn.isEmpty() || proto.returnType().equals("void")) {
            c.append("typedef ").append(javaReturn.map(SignatureCheck::plainType).orElse("void")).append(' ')
                    .append(ret).append(";\n");
        } else {
            checked(c, ret, proto.returnType(), javaReturn.get(), f + " returns " + proto.returnType());
        }
        List<MemoryLayout> javaParams = d.descriptor().argumentLayouts();
        StringBuilder params = new StringBuilder();
        for (int i = 0; i < javaParams.size(); i++) {
            String p = "etw4j_" + f + "_p" + i;
            if (i < proto.parameterTypes().size()) {
                String type = proto.parameterTypes().get(i);
                checked(c, p, type, javaParams.get(i), f + " parameter " + i + " is " + type);
            } else {
                c.append("typedef ").append(plainType(javaParams.get(i))).append(' ').append(p)
                        .append("; /* Java only: C declares ").append(proto.parameterTypes().size())
                        .append(" parameters */\n");
            }
            params.append(i == 0 ? "" : ", ").append(p);
        }
        c.append(ret).append(' ').append(d.initialiserMarker()).append(params.isEmpty() ? "void" : params)
                .append(") = ").append(d.name()).append(";\n\n");
    }

    private static void checked(StringBuilder c, String typedef, String cType, MemoryLayout java, String what) {
        c.append("typedef __typeof__(").append(cType).append(") ").append(typedef).append(";\n");
        c.append("ETW4J_EXPECT(").append(typedef).append(", ").append(kind(java)).append(", ").append(java.byteSize())
                .append(", \"").append(what).append(": the Java descriptor has ").append(describe(java))
                .append("\");\n");
    }

    /** The kind macro suffix for a Java layout. */
    static String kind(MemoryLayout layout) {
        return switch (layout) {
            case AddressLayout a -> "POINTER";
            case ValueLayout.OfFloat f -> "FLOATING";
            case ValueLayout.OfDouble d -> "FLOATING";
            case ValueLayout v -> "INTEGER";
            case GroupLayout g -> "AGGREGATE";
            default -> throw new IllegalArgumentException("no C parameter kind for " + layout);
        };
    }

    private static String describe(MemoryLayout layout) {
        return switch (kind(layout)) {
            case "POINTER" -> "a pointer";
            case "FLOATING" -> "a " + layout.byteSize() + "-byte floating-point value";
            case "AGGREGATE" -> "a " + layout.byteSize() + "-byte structure by value";
            default -> "a " + layout.byteSize() + "-byte integer";
        } + " (" + layout + ")";
    }

    /** The C type a Java layout stands for where the header has no type to check it against. */
    static String plainType(MemoryLayout layout) {
        return switch (kind(layout)) {
            case "POINTER" -> "void *";
            case "FLOATING" -> layout.byteSize() == 4 ? "float" : "double";
            case "AGGREGATE" -> "struct etw4j_bytes_" + layout.byteSize();
            default -> switch ((int) layout.byteSize()) {
                case 1 -> "signed char";
                case 2 -> "short";
                case 4 -> "int";
                case 8 -> "long long";
                default -> throw new IllegalArgumentException("no C integer of " + layout.byteSize() + " bytes");
            };
        };
    }
}
