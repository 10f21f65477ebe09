package org.etw4j.consumer.internal.decode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.etw4j.Guid;

/** Little-endian byte builder for synthetic payloads. */
final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int v) {
        out.write(v);
        return this;
    }

    Bytes u16(int v) {
        out.write(v);
        out.write(v >>> 8);
        return this;
    }

    Bytes u32(long v) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    Bytes u64(long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    Bytes utf16z(String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_16LE));
        return u16(0);
    }

    Bytes ansiz(String s) {
        out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
        return u8(0);
    }

    Bytes raw(byte... b) {
        out.writeBytes(b);
        return this;
    }

    Bytes guid(Guid g) {
        out.writeBytes(g.toWindowsBytes());
        return this;
    }

    byte[] get() {
        return out.toByteArray();
    }
}
