package org.etw4j.tracelogging;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A parsed TraceLogging event metadata blob (the {@code EVENT_SCHEMA_TL} extended data item of a recorded event,
 * or {@link TraceLoggingEvent#metadataArrayUnsafe()}): event name, tags and field declarations, with struct
 * nesting resolved, plus a decoder for payloads written with it.
 *
 * <p>Immutable; thread-safe; cacheable. Two schemas are {@link #equals equal} exactly when their metadata bytes
 * are equal, so the bytes themselves are the cache key: events of one provider that share an id (TraceLogging
 * events usually all have id 0) but carry different metadata never share a schema. See
 * {@link TraceLoggingSchemaCache} for a lookup that does not copy the bytes.
 *
 * <p>Format: TraceLoggingProvider.h "How to encode metadata" and "Encoding data";
 * TraceLoggingDynamic.h. The blob's {@code Size} field decides its
 * length; bytes after it (alignment padding of an extended data item) are ignored. Unknown OutType codes read as
 * {@link OutType#DEFAULT}; custom-schema fields ({@link Arity#CUSTOM}) parse, but payloads containing them
 * cannot be decoded.
 */
public final class TraceLoggingSchema {

    /**
     * A field with its struct members resolved.
     *
     * @param field   the declaration
     * @param members the struct's members (empty unless {@code field.isStruct()})
     */
    public record FieldNode(TraceLoggingField field, List<FieldNode> members) {
        /** Keeps the members list unmodifiable. */
        public FieldNode {
            members = List.copyOf(members);
        }
    }

    /**
     * Deepest struct nesting accepted (a struct inside a struct ... {@value} levels). A guard, not a Windows
     * rule: no limit is documented, real events nest a few levels, and the metadata comes from trace files, so a
     * hostile blob (65535 bytes can nest 16000 deep) must not exhaust the parser's or the decoder's stack.
     */
    public static final int MAX_STRUCT_DEPTH = 64;

    private final byte[] bytes;
    private final int hash;
    private final String name;
    private final int tags;
    private final List<TraceLoggingField> fields;
    private final List<FieldNode> topLevel;

    private TraceLoggingSchema(byte[] bytes, String name, int tags, List<TraceLoggingField> fields,
                               List<FieldNode> topLevel) {
        this.bytes = bytes;
        this.hash = hashOf(bytes, 0, bytes.length);
        this.name = name;
        this.tags = tags;
        this.fields = fields;
        this.topLevel = topLevel;
    }

    /**
     * Parses a whole blob.
     *
     * @throws TraceLoggingDecodeException if the blob is malformed (offsets are from the blob's start)
     */
    public static TraceLoggingSchema parse(byte[] blob) {
        return parse(blob, 0, blob.length);
    }

    /** Parses the blob at {@code blob[off]}, which must lie within {@code len} bytes. */
    public static TraceLoggingSchema parse(byte[] blob, int off, int len) {
        if (off < 0 || len < 0 || off > blob.length - len) {
            throw new IllegalArgumentException("range [" + off + ", +" + len + ") outside an array of " + blob.length);
        }
        int size = sizeField(len >= 2 ? (blob[off] & 0xFF) | (blob[off + 1] & 0xFF) << 8 : -1, len);
        return parseOwned(Arrays.copyOfRange(blob, off, off + size));
    }

    /** Parses the blob between the buffer's position and limit; the position is not changed. */
    public static TraceLoggingSchema parse(ByteBuffer blob) {
        int p = blob.position();
        int len = blob.remaining();
        int size = sizeField(len >= 2 ? (blob.get(p) & 0xFF) | (blob.get(p + 1) & 0xFF) << 8 : -1, len);
        byte[] copy = new byte[size];
        for (int i = 0; i < size; i++) {
            copy[i] = blob.get(p + i);
        }
        return parseOwned(copy);
    }

    private static int sizeField(int size, int available) {
        if (size < 0) {
            throw new TraceLoggingDecodeException(null, 0, "metadata blob shorter than its 2-byte Size field");
        }
        if (size < 4) {
            throw new TraceLoggingDecodeException(null, 0, "metadata Size " + size
                    + " is below the minimum of 4 (size, tag byte, empty name)");
        }
        if (size > available) {
            throw new TraceLoggingDecodeException(null, 0, "metadata Size " + size + " exceeds the " + available
                    + " bytes available");
        }
        return size;
    }

    private static TraceLoggingSchema parseOwned(byte[] b) {
        int end = b.length;
        int p = 2;
        int tagLen = TraceLoggingTags.length(b, p, end);
        if (tagLen < 0) {
            throw new TraceLoggingDecodeException(null, p, "event tags run past the end of the metadata");
        }
        int tags = TraceLoggingTags.decode(b, p, end);
        p += tagLen;
        int nul = indexOfNul(b, p, end);
        if (nul < 0) {
            throw new TraceLoggingDecodeException(null, p, "event name is not NUL-terminated");
        }
        String eventName = new String(b, p, nul - p, StandardCharsets.UTF_8);
        p = nul + 1;
        List<TraceLoggingField> fields = new ArrayList<>();
        while (p < end) {
            int fieldStart = p;
            nul = indexOfNul(b, p, end);
            if (nul < 0) {
                throw new TraceLoggingDecodeException(null, p, "field name is not NUL-terminated");
            }
            String fieldName = new String(b, p, nul - p, StandardCharsets.UTF_8);
            p = nul + 1;
            if (p >= end) {
                throw new TraceLoggingDecodeException(fieldName, p, "InMeta byte missing");
            }
            int inMeta = b[p++] & 0xFF;
            InType inType = InType.fromCode(inMeta & InType.MASK);
            if (inType == null) {
                throw new TraceLoggingDecodeException(fieldName, p - 1, "undefined InType " + (inMeta & InType.MASK));
            }
            Arity arity = Arity.fromInMeta(inMeta);
            int outCode = 0;
            int fieldTags = 0;
            if ((inMeta & 0x80) != 0) {
                if (p >= end) {
                    throw new TraceLoggingDecodeException(fieldName, p, "OutMeta byte missing");
                }
                int outMeta = b[p++] & 0xFF;
                outCode = outMeta & OutType.MASK;
                if ((outMeta & 0x80) != 0) {
                    tagLen = TraceLoggingTags.length(b, p, end);
                    if (tagLen < 0) {
                        throw new TraceLoggingDecodeException(fieldName, p, "field tags run past the end");
                    }
                    fieldTags = TraceLoggingTags.decode(b, p, end);
                    p += tagLen;
                }
            }
            int fixedCount = 0;
            if (arity == Arity.FIXED_ARRAY || arity == Arity.CUSTOM) {
                if (p + 2 > end) {
                    throw new TraceLoggingDecodeException(fieldName, p, (arity == Arity.CUSTOM ? "CbSchema" : "Ccount")
                            + " missing");
                }
                int v = (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8;
                p += 2;
                if (arity == Arity.FIXED_ARRAY) {
                    fixedCount = v;
                } else {
                    if (p + v > end) {
                        throw new TraceLoggingDecodeException(fieldName, p, "custom schema of " + v
                                + " bytes runs past the end");
                    }
                    p += v;
                }
            }
            int members = 0;
            OutType outType;
            if (inType == InType.STRUCT) {
                members = outCode;
                outType = OutType.DEFAULT;
                if (members == 0) {
                    throw new TraceLoggingDecodeException(fieldName, fieldStart, "struct without a member count");
                }
            } else {
                OutType known = OutType.fromCode(outCode);
                outType = known == null ? OutType.DEFAULT : known;
            }
            fields.add(new TraceLoggingField(fieldName, inType, outType, fieldTags, arity, fixedCount, members));
        }
        List<FieldNode> top = new ArrayList<>();
        int[] cursor = {0};
        while (cursor[0] < fields.size()) {
            top.add(node(fields, cursor, 0));
        }
        return new TraceLoggingSchema(b, eventName, tags, List.copyOf(fields), List.copyOf(top));
    }

    private static FieldNode node(List<TraceLoggingField> fields, int[] cursor, int depth) {
        TraceLoggingField f = fields.get(cursor[0]++);
        if (!f.isStruct()) {
            return new FieldNode(f, List.of());
        }
        if (depth == MAX_STRUCT_DEPTH) {
            throw new TraceLoggingDecodeException(f.name(), -1, "structs nested deeper than " + MAX_STRUCT_DEPTH
                    + " levels (a guard against hostile metadata)");
        }
        List<FieldNode> members = new ArrayList<>(f.structMemberCount());
        for (int m = 0; m < f.structMemberCount(); m++) {
            if (cursor[0] >= fields.size()) {
                throw new TraceLoggingDecodeException(f.name(), -1, "struct declares " + f.structMemberCount()
                        + " members but only " + m + " follow");
            }
            members.add(node(fields, cursor, depth + 1));
        }
        return new FieldNode(f, members);
    }

    private static int indexOfNul(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------------------------------ accessors

    /** The event name. */
    public String name() {
        return name;
    }

    /** The 28-bit event tags. */
    public int tags() {
        return tags;
    }

    /** All declarations in metadata order (flat; struct members follow their struct). */
    public List<TraceLoggingField> fields() {
        return fields;
    }

    /** The top-level fields, each struct with its members. */
    public List<FieldNode> topLevelFields() {
        return topLevel;
    }

    /** Size of the metadata blob (its Size field). */
    public int metadataLength() {
        return bytes.length;
    }

    /** A copy of the metadata blob. */
    public byte[] metadata() {
        return bytes.clone();
    }

    /** Whether {@code len} bytes at {@code src[off]} are exactly this schema's metadata. */
    public boolean matches(byte[] src, int off, int len) {
        return len == bytes.length && Arrays.equals(bytes, 0, len, src, off, off + len);
    }

    /** Whether the bytes between the buffer's position and limit are exactly this schema's metadata. */
    public boolean matches(ByteBuffer src) {
        return matches(src, src.position(), src.remaining());
    }

    /** Whether {@code len} bytes at absolute index {@code off} of {@code src} are exactly this schema's metadata. */
    public boolean matches(ByteBuffer src, int off, int len) {
        if (len != bytes.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (src.get(off + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** The hash {@link #hashCode()} uses, over any byte range ({@link Arrays#hashCode(byte[])} rules). */
    public static int hashOf(byte[] b, int off, int len) {
        if (off == 0 && len == b.length) {
            return Arrays.hashCode(b); // vectorized by the JDK
        }
        int h = 1;
        for (int i = 0; i < len; i++) {
            h = 31 * h + b[off + i];
        }
        return h;
    }

    /** {@link #hashOf(byte[], int, int)} over {@code len} bytes at absolute index {@code off} of a buffer. */
    public static int hashOf(ByteBuffer b, int off, int len) {
        int h = 1;
        for (int i = 0; i < len; i++) {
            h = 31 * h + b.get(off + i);
        }
        return h;
    }

    // ----------------------------------------------------------------------------------------- decoding

    /**
     * Decodes a payload written with this schema, starting at the buffer's position. On success the position is
     * just after the last byte used (so {@code remaining()} is what the schema did not account for); on failure
     * it is unchanged. Never reads outside position..limit.
     *
     * @param pointerSize size of InType POINTER values (4 or 8, from the event header's 32/64-bit flag); only
     *                    used if such a field appears, as TraceLogging writers must not emit it
     * @return the top-level fields in order; value types are listed on {@link DecodedField}
     * @throws TraceLoggingDecodeException naming the field and the payload offset when the data is truncated
     *                                     or malformed, or when the metadata would produce more values than the
     *                                     payload size allows (65536 + 4 per byte: a guard against hostile
     *                                     metadata such as fixed arrays of structs of NULL fields)
     */
    public List<DecodedField> decode(ByteBuffer payload, int pointerSize) {
        if (pointerSize != 4 && pointerSize != 8) {
            throw new IllegalArgumentException("pointerSize must be 4 or 8, got " + pointerSize);
        }
        TraceLoggingPayloadDecoder d = new TraceLoggingPayloadDecoder(payload, pointerSize);
        List<DecodedField> out = new ArrayList<>(topLevel.size());
        for (FieldNode n : topLevel) {
            out.add(d.field(n));
        }
        payload.position(d.position());
        return Collections.unmodifiableList(out);
    }

    /** Decodes a whole payload array; see {@link #decode(ByteBuffer, int)}. Leftover bytes are ignored. */
    public List<DecodedField> decode(byte[] payload, int pointerSize) {
        return decode(ByteBuffer.wrap(payload), pointerSize);
    }

    // ------------------------------------------------------------------------------------------ object

    /** Equal when the metadata bytes are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TraceLoggingSchema s && s.hash == hash && Arrays.equals(s.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "TraceLoggingSchema[" + name + ", " + fields.size() + " fields, " + bytes.length + " bytes]";
    }
}
