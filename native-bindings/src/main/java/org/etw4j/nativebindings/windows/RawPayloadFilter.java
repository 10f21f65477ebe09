package org.etw4j.nativebindings.windows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.PayloadPredicate;

/**
 * etw4j's own flat encoding of an {@link EventFilter.Payload}, the data of an {@code EVENT_FILTER_TYPE_PAYLOAD}
 * descriptor when the library is a substitute (the test stand-in).
 *
 * <p>Stateless; thread-safe. Why not Windows' form: on Windows the descriptor's data is an opaque object built
 * by {@code TdhCreatePayloadFilter} and {@code TdhAggregatePayloadFilters} (from the provider's schema, which TDH
 * must know). Those functions are not in the generated bindings (functions.txt) nor in the stand-in, so the
 * backend refuses payload filters against the system's ETW (ERROR_NOT_SUPPORTED, with a message) and passes this
 * encoding to a substitute, whose simulated ETW applies {@link EventFilter.Payload} itself. Layout, little-endian,
 * strings UTF-16 without NUL:
 * <pre>
 * u32 magic 'E4PF' | u16 version 1 | u16 eventId | u8 matchAny | u8 predicateCount | u16 eventNameChars
 * WCHAR eventName[eventNameChars]          (0 chars: select by eventId)
 * predicateCount x { u16 compareOp (PAYLOADFIELD_*) | u16 fieldChars | u16 valueChars | WCHAR field[] | WCHAR value[] }
 * </pre>
 */
final class RawPayloadFilter {
    static final int MAGIC = 0x4650_3445; // "E4PF" as little-endian bytes
    static final int VERSION = 1;

    private RawPayloadFilter() {
    }

    static byte[] encode(EventFilter.Payload f) {
        String name = f.eventName() == null ? "" : f.eventName();
        int size = 4 + 2 + 2 + 1 + 1 + 2 + 2 * name.length();
        for (PayloadPredicate p : f.predicates()) {
            size += 6 + 2 * (p.field().length() + p.value().length());
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putShort((short) VERSION).putShort((short) f.eventId()).put((byte) (f.matchAny() ? 1 : 0))
                .put((byte) f.predicates().size()).putShort((short) name.length());
        putChars(b, name);
        for (PayloadPredicate p : f.predicates()) {
            b.putShort((short) p.op().code()).putShort((short) p.field().length()).putShort((short) p.value().length());
            putChars(b, p.field());
            putChars(b, p.value());
        }
        return b.array();
    }

    /**
     * Reads an encoding back (substitute engines use this).
     *
     * @throws IllegalArgumentException if {@code data} is not one
     */
    static EventFilter.Payload decode(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (b.getInt() != MAGIC || b.getShort() != VERSION) {
                throw new IllegalArgumentException("not an etw4j raw payload filter");
            }
            int eventId = Short.toUnsignedInt(b.getShort());
            boolean matchAny = b.get() != 0;
            int count = Byte.toUnsignedInt(b.get());
            String name = chars(b, Short.toUnsignedInt(b.getShort()));
            List<PayloadPredicate> predicates = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int op = Short.toUnsignedInt(b.getShort());
                int fieldChars = Short.toUnsignedInt(b.getShort());
                int valueChars = Short.toUnsignedInt(b.getShort());
                String field = chars(b, fieldChars);
                String value = chars(b, valueChars);
                predicates.add(new PayloadPredicate(field, op(op), value));
            }
            return new EventFilter.Payload(name.isEmpty() ? null : name, eventId, matchAny, predicates);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated etw4j raw payload filter", e);
        }
    }

    private static PayloadPredicate.Op op(int code) {
        for (PayloadPredicate.Op o : PayloadPredicate.Op.values()) {
            if (o.code() == code) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown PAYLOADFIELD_ comparison " + code);
    }

    private static void putChars(ByteBuffer b, String s) {
        for (int i = 0; i < s.length(); i++) {
            b.putChar(s.charAt(i));
        }
    }

    private static String chars(ByteBuffer b, int n) {
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = b.getChar();
        }
        return new String(c);
    }
}
