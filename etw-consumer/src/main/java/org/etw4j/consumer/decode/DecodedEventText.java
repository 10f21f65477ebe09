package org.etw4j.consumer.decode;

import org.etw4j.consumer.EventRecord;
import org.etw4j.consumer.internal.EventRecordAccess;

/**
 * The one-line text form of a decoded event, in the style of TraceEvent's event dumps:
 * {@code Provider/Task/Opcode name=value; name=value; ...}.
 * Stateless; thread-safe. Values print as {@link FieldText} describes; mapped values print their label;
 * newlines and carriage returns inside values are escaped as {@code \n} and {@code \r} so an event stays on one
 * line; failed fields print {@code <error: why; raw=hex>}; undecoded trailing bytes are appended as
 * {@code <undecoded>=hex}.
 */
public final class DecodedEventText {
    private DecodedEventText() {
    }

    /** The event as one line. */
    public static String format(DecodedEvent e) {
        StringBuilder sb = new StringBuilder(128);
        appendTo(sb, e);
        return sb.toString();
    }

    /** {@code e}'s decoded value as one line (the record is decoded on first use, then keeps its value). */
    public static String format(EventRecord e) {
        return format(EventRecordAccess.decoded(e));
    }

    /** Appends the event's line to {@code sb}. */
    public static StringBuilder appendTo(StringBuilder sb, DecodedEvent e) {
        sb.append(e.providerName()).append('/').append(e.eventName());
        return appendFields(sb, e);
    }

    /**
     * Appends the part of the line after the event's name: {@code " name=value;"} per field, then the undecoded
     * bytes if any (nothing when the event has neither).
     */
    public static StringBuilder appendFields(StringBuilder sb, DecodedEvent e) {
        for (EventField f : e.fields()) {
            sb.append(' ').append(f.name()).append('=');
            int from = sb.length();
            FieldText.appendDisplay(sb, f);
            escapeFrom(sb, from);
            sb.append(';');
        }
        if (e.undecodedLength() > 0) {
            FieldText.appendHex(sb.append(" <undecoded>="), e.undecoded()).append(';');
        }
        return sb;
    }

    /** Escapes newlines and carriage returns in {@code sb} from index {@code from} on. */
    static void escapeFrom(StringBuilder sb, int from) {
        int i = from;
        int n = sb.length();
        while (i < n && sb.charAt(i) != '\n' && sb.charAt(i) != '\r') {
            i++;
        }
        if (i == n) {
            return;
        }
        String tail = sb.substring(i);
        sb.setLength(i);
        for (int k = 0; k < tail.length(); k++) {
            char c = tail.charAt(k);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else {
                sb.append(c);
            }
        }
    }
}
