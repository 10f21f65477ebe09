package org.etw4j.tracelogging;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.etw4j.Guid;
import org.etw4j.provider.PayloadBuffer;

/**
 * A TraceLogging provider metadata blob ("provider traits"): the provider name and optional traits such as the
 * provider group GUID. ETW receives it once per registration ({@code EventSetInformation(EventProviderSetTraits)})
 * and with every write (data descriptor type 2); in .etl files it is the {@code PROV_TRAITS} extended data item.
 *
 * <p>Immutable; thread-safe. Layout (TraceLoggingProvider.h "ProviderMetadata", the Windows SDK
 * text also in microsoft/tracelogging's TraceLoggingDynamic.h): {@code u16 Size (whole blob), UTF-8 name, NUL}, then chunks
 * {@code u16 ChunkSize (>= 3, includes itself and the type), u8 Type, data}. Type 1 is the provider group GUID
 * (16 bytes, Windows layout), type 2 a decode GUID.
 */
public final class ProviderTraits {

    /** Trait type of the provider group GUID ({@code EtwProviderTraitTypeGroup}). */
    public static final int TRAIT_GROUP = 1;
    /** Trait type of the decode GUID ({@code EtwProviderTraitDecodeGuid}). */
    public static final int TRAIT_DECODE_GUID = 2;

    /**
     * One trait chunk.
     *
     * @param type trait type (0-255)
     * @param data the chunk's data (a copy is kept and returned)
     */
    public record Trait(int type, byte[] data) {
        /** Copies the data and range-checks the type. */
        public Trait {
            if (type < 0 || type > 255) {
                throw new IllegalArgumentException("trait type must be 0-255, got " + type);
            }
            data = data.clone();
        }

        /** A copy of the data. */
        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Trait t && t.type == type && Arrays.equals(t.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Trait[type=" + type + ", " + data.length + " bytes]";
        }
    }

    private final String name;
    private final List<Trait> traits;
    private final byte[] encoded;

    private ProviderTraits(String name, List<Trait> traits, byte[] encoded) {
        this.name = name;
        this.traits = traits;
        this.encoded = encoded;
    }

    /**
     * The blob for provider {@code name}, with a group trait when {@code groupOrNull} is not null.
     *
     * @throws IllegalArgumentException if the name is null, empty, contains NUL or unpaired surrogates
     */
    public static byte[] encode(String name, Guid groupOrNull) {
        return of(name, groupOrNull).encoded();
    }

    /** Builds the traits for provider {@code name} and an optional group GUID. */
    public static ProviderTraits of(String name, Guid groupOrNull) {
        List<Trait> traits = groupOrNull == null ? List.of()
                : List.of(new Trait(TRAIT_GROUP, groupOrNull.toWindowsBytes()));
        return of(name, traits);
    }

    /**
     * Builds traits with any chunks.
     *
     * @throws IllegalArgumentException for an invalid name or a blob larger than 65535 bytes
     */
    public static ProviderTraits of(String name, List<Trait> traits) {
        byte[] utf8 = utf8Name(name);
        PayloadBuffer b = new PayloadBuffer(2 + utf8.length + 1 + 19 * traits.size());
        b.putUInt16(0).putBytes(utf8, 0, utf8.length).putUInt8(0);
        for (Trait t : traits) {
            Objects.requireNonNull(t, "trait");
            int chunk = 3 + t.data.length;
            if (chunk > 0xFFFF) {
                throw new IllegalArgumentException("provider trait of type " + t.type + " is " + chunk
                        + " bytes; a chunk must fit a u16 size");
            }
            b.putUInt16(chunk).putUInt8(t.type).putBytes(t.data, 0, t.data.length);
        }
        if (b.length() > 0xFFFF) {
            throw new IllegalArgumentException("provider metadata for '" + name + "' would be " + b.length()
                    + " bytes; its Size field is a u16");
        }
        b.setUInt16(0, b.length());
        return new ProviderTraits(name, List.copyOf(traits), b.toByteArray());
    }

    /** Parses a whole blob (bytes after its Size are ignored). */
    public static ProviderTraits parse(byte[] blob) {
        return parse(ByteBuffer.wrap(blob));
    }

    /**
     * Parses the blob at the buffer's position (the position is not changed). Follows the reference walker in
     * evntcons.h ({@code EtwGetTraitFromProviderTraits}): Size at least 3, name up to its NUL, chunks of at least
     * 3 bytes until Size is consumed.
     *
     * @throws TraceLoggingDecodeException if the blob is malformed
     */
    public static ProviderTraits parse(ByteBuffer blob) {
        int base = blob.position();
        int available = blob.remaining();
        if (available < 2) {
            throw new TraceLoggingDecodeException(null, 0, "provider metadata shorter than its Size field");
        }
        int size = u16(blob, base);
        if (size < 3 || size > available) {
            throw new TraceLoggingDecodeException(null, 0, "provider metadata Size " + size + " is invalid ("
                    + available + " bytes available, minimum 3)");
        }
        int p = 2;
        while (p < size && blob.get(base + p) != 0) {
            p++;
        }
        if (p >= size) {
            throw new TraceLoggingDecodeException(null, 2, "provider name is not NUL-terminated");
        }
        byte[] nameBytes = new byte[p - 2];
        for (int i = 0; i < nameBytes.length; i++) {
            nameBytes[i] = blob.get(base + 2 + i);
        }
        String name = new String(nameBytes, StandardCharsets.UTF_8);
        p++;
        List<Trait> traits = new ArrayList<>();
        while (p < size) {
            if (p + 3 > size) {
                throw new TraceLoggingDecodeException(null, p, "provider trait header runs past Size");
            }
            int chunk = u16(blob, base + p);
            if (chunk < 3 || p + chunk > size) {
                throw new TraceLoggingDecodeException(null, p, "provider trait size " + chunk + " is invalid");
            }
            byte[] data = new byte[chunk - 3];
            for (int i = 0; i < data.length; i++) {
                data[i] = blob.get(base + p + 3 + i);
            }
            traits.add(new Trait(blob.get(base + p + 2) & 0xFF, data));
            p += chunk;
        }
        byte[] encoded = new byte[size];
        for (int i = 0; i < size; i++) {
            encoded[i] = blob.get(base + i);
        }
        return new ProviderTraits(name, List.copyOf(traits), encoded);
    }

    /** The provider name. */
    public String name() {
        return name;
    }

    /** The group GUID (first type-1 trait with 16 bytes of data), if any. */
    public Optional<Guid> group() {
        return guidTrait(TRAIT_GROUP);
    }

    /** The decode GUID (first type-2 trait with 16 bytes of data), if any. */
    public Optional<Guid> decodeGuid() {
        return guidTrait(TRAIT_DECODE_GUID);
    }

    /** All trait chunks in order, the group trait included. */
    public List<Trait> traits() {
        return traits;
    }

    /** The traits other than the group GUID (types this class does not interpret, and the decode GUID). */
    public List<Trait> otherTraits() {
        List<Trait> other = new ArrayList<>();
        boolean groupSeen = false;
        for (Trait t : traits) {
            if (!groupSeen && t.type == TRAIT_GROUP && t.data.length == Guid.BYTES) {
                groupSeen = true;
            } else {
                other.add(t);
            }
        }
        return List.copyOf(other);
    }

    /** A copy of the encoded blob. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /**
     * The encoded blob itself, without copying, for the write path (it goes to ETW as the Type-2 data descriptor
     * of every TraceLogging write). <b>Do not modify it</b>: the instance is shared.
     */
    public byte[] encodedArrayUnsafe() {
        return encoded;
    }

    private Optional<Guid> guidTrait(int type) {
        for (Trait t : traits) {
            if (t.type == type && t.data.length == Guid.BYTES) {
                return Optional.of(Guid.readFrom(t.data, 0));
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProviderTraits p && Arrays.equals(p.encoded, encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return "ProviderTraits[" + name + group().map(g -> ", group " + g).orElse("") + ", " + traits.size()
                + " traits]";
    }

    private static int u16(ByteBuffer b, int at) {
        return (b.get(at) & 0xFF) | (b.get(at + 1) & 0xFF) << 8;
    }

    private static byte[] utf8Name(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("provider name must not be null or empty");
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("provider name must not contain NUL (U+0000): '" + name + "'");
        }
        try {
            ByteBuffer bb = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(java.nio.CharBuffer.wrap(name));
            return Arrays.copyOfRange(bb.array(), bb.arrayOffset() + bb.position(), bb.arrayOffset() + bb.limit());
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("provider name is not valid UTF-16 (unpaired surrogate)", e);
        }
    }
}
