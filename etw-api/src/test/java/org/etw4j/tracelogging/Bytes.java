package org.etw4j.tracelogging;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Test helper: builds byte arrays from hex and NUL-terminated ASCII pieces, as the format notes write them. */
final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Bytes of() {
        return new Bytes();
    }

    /** Hex digits, spaces ignored. */
    static byte[] hex(String s) {
        String h = s.replace(" ", "").replace("\n", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    Bytes h(String hex) {
        out.writeBytes(hex(hex));
        return this;
    }

    /** ASCII text followed by a NUL byte (the notes' {@code "Name\0"}). */
    Bytes z(String ascii) {
        out.writeBytes(ascii.getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        return this;
    }

    /** UTF-16LE text followed by a u16 NUL. */
    Bytes z16(String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_16LE));
        out.write(0);
        out.write(0);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
