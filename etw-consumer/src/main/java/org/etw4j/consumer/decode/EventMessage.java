package org.etw4j.consumer.decode;

import java.util.List;

/**
 * Formats an event's localized message (the manifest's {@code message} string) with its decoded fields, as
 * {@code FormatMessage}-style inserts: {@code %1}..{@code %99} are the top-level fields in template order,
 * {@code %n} a line break, {@code %t} a tab, {@code %r} a carriage return, {@code %%} a percent sign,
 * {@code %.} and {@code %!} the character itself; a printf-style suffix ({@code %1!s!}) is dropped.
 * Stateless; thread-safe. Source: MS Learn "FormatMessage" (insert sequences) and "EventManifest schema"
 * (event {@code message}: "%1 .. %n refer to the template's data items in order"). Values print as in the
 * text form ({@link DecodedEventText}); an insert past the last field prints as-is.
 */
public final class EventMessage {
    private EventMessage() {
    }

    /** The message with its inserts replaced, or {@code null} when {@code template} is null. */
    public static String format(String template, List<EventField> fields) {
        if (template == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder(template.length() + 32);
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
                if (index >= 1 && index <= fields.size()) {
                    sb.append(FieldText.display(fields.get(index - 1)));
                } else {
                    sb.append(template, i, end);
                }
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
        return sb.toString();
    }
}
