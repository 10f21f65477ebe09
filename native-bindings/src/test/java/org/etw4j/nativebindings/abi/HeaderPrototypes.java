package org.etw4j.nativebindings.abi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The function prototypes of the Windows headers as x86_64-w64-mingw32-gcc reads them: parsed from its
 * {@code -aux-info} output ({@link MingwToolchain#prototypes}), which prints every declared function as
 * {@code extern RET NAME (T1, T2, ...);} with the type names the header wrote (typedef names kept).
 *
 * <p>Test helper; stateless. The parse is not trusted on its own: {@link SignatureCheck} assigns each function
 * to a pointer of exactly the parsed type under {@code -Werror}, so a misread prototype fails compilation.
 */
final class HeaderPrototypes {

    /** One prototype: return type, parameter types in order (none for {@code (void)}), and where it is declared. */
    record Prototype(String name, String returnType, List<String> parameterTypes, String declaredAt) {

        /** The prototype as C, for messages. */
        String c() {
            return returnType + " " + name + "(" + (parameterTypes.isEmpty() ? "void" : String.join(", ", parameterTypes))
                    + ")";
        }
    }

    private static final Pattern LINE = Pattern.compile(
            "^/\\* (?<at>\\S+):\\w+ \\*/ extern (?<ret>.+?) ?\\b(?<name>[A-Za-z_]\\w*) \\((?<params>.*)\\);\\s*$");

    private HeaderPrototypes() {
    }

    /** Every prototype in {@code auxInfo}, by function name; the first declaration wins. */
    static Map<String, Prototype> parse(String auxInfo) {
        Map<String, Prototype> byName = new LinkedHashMap<>();
        for (String line : auxInfo.split("\\R")) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String params = m.group("params").strip();
            List<String> types = params.equals("void") || params.isEmpty() ? List.of() : splitTopLevel(params);
            byName.putIfAbsent(m.group("name"),
                    new Prototype(m.group("name"), m.group("ret").strip(), types, m.group("at")));
        }
        return byName;
    }

    /** Splits on commas outside parentheses, so function-pointer parameter types stay whole. */
    private static List<String> splitTopLevel(String params) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < params.length(); i++) {
            char ch = params.charAt(i);
            if (ch == '(' || ch == '[') {
                depth++;
            } else if (ch == ')' || ch == ']') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(params.substring(start, i).strip());
                start = i + 1;
            }
        }
        out.add(params.substring(start).strip());
        return out;
    }
}
