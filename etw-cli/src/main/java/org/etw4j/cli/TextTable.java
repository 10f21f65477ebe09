package org.etw4j.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: rows of cells printed in aligned columns, numbers right-aligned, the last column free.
 *
 * <p>Not thread-safe; build, print, discard.
 */
final class TextTable {
    private final String indent;
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String indent) {
        this.indent = indent;
    }

    /** Adds a row; cells may be any objects (printed with {@code String.valueOf}). */
    TextTable row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = cells[i] == null ? "" : String.valueOf(cells[i]);
        }
        rows.add(r);
        return this;
    }

    void print(PrintWriter out) {
        int cols = 0;
        for (String[] r : rows) {
            cols = Math.max(cols, r.length);
        }
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder sb = new StringBuilder(indent);
            for (int i = 0; i < r.length; i++) {
                boolean last = i == r.length - 1;
                String c = r[i];
                if (isNumber(c)) {
                    sb.append(" ".repeat(width[i] - c.length())).append(c);
                } else {
                    sb.append(c);
                    if (!last) {
                        sb.append(" ".repeat(width[i] - c.length()));
                    }
                }
                if (!last) {
                    sb.append("  ");
                }
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-' && s.length() > 1)) {
                return false;
            }
        }
        return true;
    }
}
