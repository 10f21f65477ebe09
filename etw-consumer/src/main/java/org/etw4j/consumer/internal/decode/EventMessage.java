package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.consumer.EventField;

/**
 * Formats an event's localized message (the manifest's {@code message} string) with its decoded fields, as
 * {@code FormatMessage}-style inserts: {@code %1}..{@code %99} are the top-level fields in template order,
 * {@code %n} a line break, {@code %t} a tab, {@code %r} a carriage return, {@code %%} a percent sign,
 * {@code %.} and {@code %!} the character itself; a printf-style suffix ({@code %1!s!}) is dropped.
 * Thread-safe; its only state is a bounded cache of compiled templates. Source: MS Learn "FormatMessage" (insert
 * sequences) and "EventManifest schema" (event {@code message}: "%1 .. %n refer to the template's data items in
 * order"). Values print as in the text form ({@code EventFormatter}'s text rule); an insert past the last field prints
 * as-is.
 */
final class EventMessage {
    private EventMessage() {
    }

    /** The message with its inserts replaced, or {@code null} when {@code template} is null. */
    public static String format(String template, List<EventField> fields) {
        if (template == null) {
            return null;
        }
        Compiled c = COMPILED.get(template);
        if (c == null) {
            c = compile(template);
            if (COMPILED.size() < MAX_COMPILED) {
                COMPILED.putIfAbsent(template, c);
            }
        }
        return c.format(fields);
    }

    /**
     * Templates already split into literal text and inserts, by template: a schema's message is formatted for
     * every event of that kind, and scanning the template each time cost more than decoding the payload. Keyed
     * by the template string (its hash is cached, and the schema hands over the same instance each time);
     * bounded, past the bound templates are compiled per call.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, Compiled> COMPILED =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_COMPILED = 16_384;

    /**
     * A compiled template: {@code literals[0]}, insert 0, {@code literals[1]}, insert 1, ... {@code literals[n]}.
     * An insert whose field is missing prints its own text ({@code raw}).
     */
    private record Compiled(String[] literals, int[] inserts, String[] raw, int literalLength) {
        String format(List<EventField> fields) {
            StringBuilder sb = new StringBuilder(literalLength + 16 * inserts.length);
            sb.append(literals[0]);
            for (int k = 0; k < inserts.length; k++) {
                int index = inserts[k];
                if (index >= 1 && index <= fields.size()) {
                    sb.append(FieldText.display(fields.get(index - 1)));
                } else {
                    sb.append(raw[k]);
                }
                sb.append(literals[k + 1]);
            }
            return sb.toString();
        }
    }

    private static Compiled compile(String template) {
        List<String> literals = new java.util.ArrayList<>();
        List<Integer> inserts = new java.util.ArrayList<>();
        List<String> raw = new java.util.ArrayList<>();
        StringBuilder sb = new StringBuilder(template.length());
        int literalLength = 0;
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '%' || i + 1 >= template.length()) {
                sb.append(c);
                i++;
                continue;
            }
            char n = template.charAt(i + 1);
            if (Character.isDigit(n)) {
                int j = i + 1;
                while (j < template.length() && j < i + 3 && Character.isDigit(template.charAt(j))) {
                    j++;
                }
                int index = Integer.parseInt(template.substring(i + 1, j));
                int end = j;
                if (end < template.length() && template.charAt(end) == '!') {
                    int close = template.indexOf('!', end + 1);
                    if (close > 0) {
                        end = close + 1;
                    }
                }
                literals.add(sb.toString());
                literalLength += sb.length();
                sb.setLength(0);
                inserts.add(index);
                raw.add(template.substring(i, end));
                i = end;
                continue;
            }
            switch (n) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case '%', '.', '!' -> sb.append(n);
                default -> sb.append('%').append(n);
            }
            i += 2;
        }
        literals.add(sb.toString());
        literalLength += sb.length();
        return new Compiled(literals.toArray(String[]::new), inserts.stream().mapToInt(Integer::intValue).toArray(),
                raw.toArray(String[]::new), literalLength);
    }
}
