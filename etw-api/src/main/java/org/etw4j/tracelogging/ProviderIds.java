package org.etw4j.tracelogging;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.etw4j.Guid;

/**
 * Provider GUIDs derived from provider names, the convention shared by TraceLogging and .NET EventSource.
 *
 * <p>Stateless utility; thread-safe. Algorithm (TraceLoggingDynamic.h
 * {@code GetGuidForNameImpl}, the Rust crate's {@code Guid::from_name}, go-winio, EventSource, TraceEvent):
 * SHA-1 over the 16 namespace bytes {@code 482C2DB2-C390-47C8-87F8-1A15BFC130FB} (big-endian) followed by the
 * upper-cased name in UTF-16BE; keep 16 bytes, set the high nibble of byte 7 to 5, and read the bytes as a
 * Windows GUID (first three groups little-endian). The RFC 4122 variant bits are deliberately not set.
 *
 * <p>Upper-casing is per UTF-16 unit with {@link Character#toUpperCase(char)}, which matches .NET's
 * {@code ToUpperInvariant} for the names seen in practice (ASCII and most letters; 'ß' stays 'ß'), not
 * {@code String.toUpperCase} (which expands 'ß' to "SS", as the Rust crate does). Nothing else is changed:
 * PerfView's leading {@code '*'} is command-line syntax meaning "derive the GUID from this name", so callers that
 * accept that syntax strip it themselves; {@code fromName("*X")} hashes the star.
 */
public final class ProviderIds {

    private static final byte[] NAMESPACE = {
        (byte) 0x48, (byte) 0x2C, (byte) 0x2D, (byte) 0xB2, (byte) 0xC3, (byte) 0x90, (byte) 0x47, (byte) 0xC8,
        (byte) 0x87, (byte) 0xF8, (byte) 0x1A, (byte) 0x15, (byte) 0xBF, (byte) 0xC1, (byte) 0x30, (byte) 0xFB,
    };

    private ProviderIds() {
    }

    /**
     * The GUID for provider {@code name}.
     *
     * @throws IllegalArgumentException if {@code name} is null or empty
     */
    public static Guid fromName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("provider name must not be null or empty");
        }
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java platform", e);
        }
        sha1.update(NAMESPACE);
        byte[] utf16be = new byte[2 * name.length()];
        for (int i = 0; i < name.length(); i++) {
            char c = Character.toUpperCase(name.charAt(i));
            utf16be[2 * i] = (byte) (c >>> 8);
            utf16be[2 * i + 1] = (byte) c;
        }
        byte[] h = sha1.digest(utf16be);
        h[7] = (byte) ((h[7] & 0x0F) | 0x50);
        return Guid.readFrom(h, 0);
    }
}
