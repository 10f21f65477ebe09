package org.etw4j.consumer.decode;

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

    /** Appends the event's line to {@code sb}. */
    public static StringBuilder appendTo(StringBuilder sb, DecodedEvent e) {
        sb.append(e.providerName()).append('/').append(e.eventName());
        for (EventField f : e.fields()) {
            sb.append(' ').append(f.name()).append('=').append(escape(FieldText.display(f))).append(';');
        }
        if (e.undecodedLength() > 0) {
            sb.append(" <undecoded>=").append(FieldText.hex(e.undecoded())).append(';');
        }
        return sb;
    }

    private static String escape(String s) {
        if (s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return s.replace("\n", "\\n").replace("\r", "\\r");
    }
}
