package org.etw4j.tracelogging;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.Level;
import org.etw4j.Opcode;
import org.etw4j.provider.PayloadBuffer;

/**
 * The definition of one TraceLogging event: its {@link EventDescriptor} and its encoded event metadata blob
 * (name, tags and field declarations), ready to be handed to ETW with every write.
 *
 * <p>Immutable; thread-safe; build once (typically into a {@code static final} constant) and reuse for every
 * write: nothing is encoded or allocated per event. The payload is not part of the definition: writers append
 * the field values, in declaration order, to a {@link PayloadBuffer} using the wire form of each field's
 * {@link InType} (etw-formats.md section 1.6).
 *
 * <p>Metadata layout (TraceLoggingProvider.h "How to encode metadata"): {@code u16 Size, tags (>= 1 byte),
 * UTF-8 name, NUL}, then per field {@code UTF-8 name, NUL, InMeta[, OutMeta[, tags]][, u16 Ccount]}. OutMeta is
 * written only when the OutType or the tags are non-zero (or the field is a struct), as TraceLoggingDynamic.h,
 * go-winio and the Python encoder do. Event tags use the shortest form (TraceLoggingDynamic.h), {@code 00} when
 * there are none, unless {@link Builder#sdkMacroEventTags()} asks for the SDK macros' two-byte form.
 *
 * <p>Defaults: id 0, version 0, channel 11 (TraceLogging; fixed), level 5 {@link Level#VERBOSE} (the SDK's
 * default for TraceLogging events and activities, TraceLoggingActivity.h "defaults to 5 =
 * WINEVENT_LEVEL_VERBOSE"), opcode 0, task 0, keyword 0, tags 0.
 */
public final class TraceLoggingEvent {

    /** Metadata blobs of this size or more are rejected (TraceLoggingDynamic.h {@code BaseEnd()}). */
    public static final int MAX_METADATA_SIZE = 32_767;
    /** Largest number of field declarations (struct headers included) per event (Python encoder's limit). */
    public static final int MAX_FIELDS = 128;
    /** Largest number of members of one struct. */
    public static final int MAX_STRUCT_MEMBERS = 127;

    private final String name;
    private final EventDescriptor descriptor;
    private final int tags;
    private final List<TraceLoggingField> fields;
    private final byte[] metadata;
    private final TraceLoggingSchema schema;

    private TraceLoggingEvent(String name, EventDescriptor descriptor, int tags, List<TraceLoggingField> fields,
                              byte[] metadata) {
        this.name = name;
        this.descriptor = descriptor;
        this.tags = tags;
        this.fields = fields;
        this.metadata = metadata;
        // Parsing our own output checks the encoder against the decoder once per definition.
        this.schema = TraceLoggingSchema.parse(metadata);
    }

    /** Starts the definition of an event called {@code name}. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The event name. */
    public String name() {
        return name;
    }

    /** The descriptor to write the event with (channel 11). */
    public EventDescriptor descriptor() {
        return descriptor;
    }

    /** The 28-bit event tags. */
    public int tags() {
        return tags;
    }

    /** The field declarations in metadata order (flat: struct members follow their struct). */
    public List<TraceLoggingField> fields() {
        return fields;
    }

    /** A copy of the event metadata blob. */
    public byte[] metadata() {
        return metadata.clone();
    }

    /**
     * The event metadata blob itself, without copying, for the write path (it is handed to ETW as the Type-1
     * data descriptor of every write). <b>Do not modify it</b>: the definition is shared by every thread.
     */
    public byte[] metadataArrayUnsafe() {
        return metadata;
    }

    /** Size of the metadata blob in bytes (also its first two bytes, little-endian). */
    public int metadataLength() {
        return metadata.length;
    }

    /** Copies the metadata blob to {@code dst[off]}; returns the offset after it. */
    public int copyMetadataTo(byte[] dst, int off) {
        System.arraycopy(metadata, 0, dst, off, metadata.length);
        return off + metadata.length;
    }

    /** The decoder's view of this definition (the same schema a consumer parses from the metadata). */
    public TraceLoggingSchema schema() {
        return schema;
    }

    @Override
    public String toString() {
        return "TraceLoggingEvent[" + name + ", " + descriptor + ", " + fields.size() + " fields]";
    }

    /**
     * Collects an event's properties and field declarations, then validates and encodes them in
     * {@link #build()}.
     *
     * <p>Not thread-safe. Reusable: {@link #build()} does not reset it and may be called again after more
     * changes. Setters and field methods only record their arguments; every check happens in {@link #build()},
     * which throws {@link IllegalArgumentException} naming the offending field.
     */
    public static final class Builder {
        private final String name;
        private int id;
        private int version;
        private int level = Level.VERBOSE.value();
        private int opcode = Opcode.INFO.value();
        private int task;
        private long keyword;
        private int tags;
        private boolean sdkMacroTags;
        private final List<Decl> fields = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** Event id (0-65535; default 0 = "no assigned id"). A non-zero (id, version) must map 1:1 to metadata. */
        public Builder id(int id) {
            this.id = id;
            return this;
        }

        /** Event version (0-255). */
        public Builder version(int version) {
            this.version = version;
            return this;
        }

        /** Level (default {@link Level#VERBOSE}). */
        public Builder level(Level level) {
            this.level = level == null ? -1 : level.value();
            return this;
        }

        /** Level as a raw byte 0-255. */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /** Opcode (default {@link Opcode#INFO}). */
        public Builder opcode(Opcode opcode) {
            this.opcode = opcode == null ? -1 : opcode.value();
            return this;
        }

        /** Opcode as a raw byte 0-255. */
        public Builder opcode(int opcode) {
            this.opcode = opcode;
            return this;
        }

        /** Task (0-65535; TraceLogging events normally leave it 0). */
        public Builder task(int task) {
            this.task = task;
            return this;
        }

        /** Keyword mask (default 0). */
        public Builder keyword(long keyword) {
            this.keyword = keyword;
            return this;
        }

        /** 28-bit event tags (default 0). */
        public Builder tags(int tags) {
            this.tags = tags;
            return this;
        }

        /**
         * Writes the event tags in at least two bytes ({@code 80 00} for none), as the SDK's
         * TraceLoggingProvider.h macros do, instead of the shortest form. Decoders read the same value either way.
         */
        public Builder sdkMacroEventTags() {
            this.sdkMacroTags = true;
            return this;
        }

        // ------------------------------------------------------------------------------ generic fields

        /** A scalar field with the InType's default format. */
        public Builder field(String name, InType type) {
            return field(name, type, OutType.DEFAULT, 0);
        }

        /** A scalar field with a format hint. */
        public Builder field(String name, InType type, OutType out) {
            return field(name, type, out, 0);
        }

        /** A scalar field with a format hint and 28-bit field tags. */
        public Builder field(String name, InType type, OutType out, int tags) {
            return add(name, type, out, tags, Arity.SCALAR, 0, 0);
        }

        /** A variable-length array (payload: u16 count, then the elements). */
        public Builder array(String name, InType type) {
            return array(name, type, OutType.DEFAULT, 0);
        }

        /** A variable-length array with a format hint. */
        public Builder array(String name, InType type, OutType out) {
            return array(name, type, out, 0);
        }

        /** A variable-length array with a format hint and field tags. */
        public Builder array(String name, InType type, OutType out, int tags) {
            return add(name, type, out, tags, Arity.VARIABLE_ARRAY, 0, 0);
        }

        /** A fixed-length array of {@code count} (1-65535) elements (no count in the payload). */
        public Builder fixedArray(String name, InType type, int count) {
            return fixedArray(name, type, OutType.DEFAULT, 0, count);
        }

        /** A fixed-length array with a format hint. */
        public Builder fixedArray(String name, InType type, OutType out, int count) {
            return fixedArray(name, type, out, 0, count);
        }

        /** A fixed-length array with a format hint and field tags. */
        public Builder fixedArray(String name, InType type, OutType out, int tags, int count) {
            return add(name, type, out, tags, Arity.FIXED_ARRAY, count, 0);
        }

        /** A struct whose members are the next {@code memberCount} (1-127) logical fields (a nested struct counts once). */
        public Builder struct(String name, int memberCount) {
            return struct(name, memberCount, 0);
        }

        /** A struct with field tags. */
        public Builder struct(String name, int memberCount, int tags) {
            return add(name, InType.STRUCT, OutType.DEFAULT, tags, Arity.SCALAR, 0, memberCount);
        }

        /** A variable-length array of structs: u16 count, then that many repetitions of all member data. */
        public Builder structArray(String name, int memberCount) {
            return add(name, InType.STRUCT, OutType.DEFAULT, 0, Arity.VARIABLE_ARRAY, 0, memberCount);
        }

        /** A fixed-length array of {@code count} structs. */
        public Builder structFixedArray(String name, int memberCount, int count) {
            return add(name, InType.STRUCT, OutType.DEFAULT, 0, Arity.FIXED_ARRAY, count, memberCount);
        }

        /** Adds a declaration as it is (for definitions assembled elsewhere); validated by {@link #build()}. */
        public Builder field(TraceLoggingField field) {
            if (field == null) {
                throw new IllegalArgumentException("field #" + fields.size() + " of event '" + name + "' is null");
            }
            fields.add(Decl.of(field));
            return this;
        }

        private Builder add(String fieldName, InType type, OutType out, int fieldTags, Arity arity, int count,
                            int members) {
            // Recorded as given; build() reports problems with the field's name and position.
            fields.add(new Decl(fieldName, type, out, fieldTags, arity, count, members));
            return this;
        }

        // --------------------------------------------------------------------------- typed shortcuts

        /** INT8. */
        public Builder int8Field(String name) {
            return field(name, InType.INT8);
        }

        /** UINT8. */
        public Builder uint8Field(String name) {
            return field(name, InType.UINT8);
        }

        /** INT16. */
        public Builder int16Field(String name) {
            return field(name, InType.INT16);
        }

        /** UINT16. */
        public Builder uint16Field(String name) {
            return field(name, InType.UINT16);
        }

        /** INT32. */
        public Builder int32Field(String name) {
            return field(name, InType.INT32);
        }

        /** UINT32. */
        public Builder uint32Field(String name) {
            return field(name, InType.UINT32);
        }

        /** INT64. */
        public Builder int64Field(String name) {
            return field(name, InType.INT64);
        }

        /** UINT64. */
        public Builder uint64Field(String name) {
            return field(name, InType.UINT64);
        }

        /** HEXINT32. */
        public Builder hexInt32Field(String name) {
            return field(name, InType.HEXINT32);
        }

        /** HEXINT64 (also the right type for pointers and handles written by Java). */
        public Builder hexInt64Field(String name) {
            return field(name, InType.HEXINT64);
        }

        /** FLOAT. */
        public Builder floatField(String name) {
            return field(name, InType.FLOAT);
        }

        /** DOUBLE. */
        public Builder doubleField(String name) {
            return field(name, InType.DOUBLE);
        }

        /** BOOL32 (4-byte Win32 BOOL; write with {@link PayloadBuffer#putBool32}). */
        public Builder boolField(String name) {
            return field(name, InType.BOOL32);
        }

        /** NUL-terminated UTF-16 string (write with {@link PayloadBuffer#putUtf16z}). */
        public Builder stringField(String name) {
            return field(name, InType.UNICODE_STRING);
        }

        /** Counted UTF-16 string (write with {@link PayloadBuffer#putCountedUtf16}). */
        public Builder countedStringField(String name) {
            return field(name, InType.COUNTED_STRING);
        }

        /** NUL-terminated UTF-8 string: ANSISTRING with OutType UTF8 (write with {@link PayloadBuffer#putUtf8z}). */
        public Builder utf8Field(String name) {
            return field(name, InType.ANSI_STRING, OutType.UTF8);
        }

        /** Counted UTF-8 string (write with {@link PayloadBuffer#putCountedUtf8}). */
        public Builder countedUtf8Field(String name) {
            return field(name, InType.COUNTED_ANSI_STRING, OutType.UTF8);
        }

        /** NUL-terminated windows-1252 string (write with {@link PayloadBuffer#putAnsiz}). */
        public Builder ansiField(String name) {
            return field(name, InType.ANSI_STRING);
        }

        /** GUID. */
        public Builder guidField(String name) {
            return field(name, InType.GUID);
        }

        /** FILETIME. */
        public Builder fileTimeField(String name) {
            return field(name, InType.FILETIME);
        }

        /** SYSTEMTIME. */
        public Builder systemTimeField(String name) {
            return field(name, InType.SYSTEMTIME);
        }

        /** SID. */
        public Builder sidField(String name) {
            return field(name, InType.SID);
        }

        /** Binary blob: COUNTEDBINARY (u16 length + bytes; write with {@link PayloadBuffer#putCountedBinary}). */
        public Builder binaryField(String name) {
            return field(name, InType.COUNTED_BINARY);
        }

        /** A process id: UINT32 with OutType PID. */
        public Builder pidField(String name) {
            return field(name, InType.UINT32, OutType.PID);
        }

        /** A Win32 error code: UINT32 with OutType WIN32ERROR. */
        public Builder win32ErrorField(String name) {
            return field(name, InType.UINT32, OutType.WIN32_ERROR);
        }

        /** An HRESULT: INT32 with OutType HRESULT. */
        public Builder hresultField(String name) {
            return field(name, InType.INT32, OutType.HRESULT);
        }

        // -------------------------------------------------------------------------------------- build

        /**
         * Validates everything and encodes the metadata.
         *
         * @throws IllegalArgumentException naming the event or field at fault: null/empty names, names with NUL
         *                                  or unpaired surrogates, InType NULL/POINTER, BINARY arrays, a STRUCT
         *                                  declared with {@code field()}, fixed counts outside 1-65535, struct
         *                                  member counts outside 1-127 or with too few following fields, tags
         *                                  beyond 28 bits, more than 128 declarations, metadata of 32768 bytes or
         *                                  more, descriptor fields out of range
         */
        public TraceLoggingEvent build() {
            String where = "TraceLogging event '" + name + "'";
            byte[] nameUtf8 = utf8Name(where, "event name", name);
            if (level < 0 || level > 255) {
                throw new IllegalArgumentException(where + ": level must be 0-255 (non-null), got " + level);
            }
            if (opcode < 0 || opcode > 255) {
                throw new IllegalArgumentException(where + ": opcode must be 0-255 (non-null), got " + opcode);
            }
            EventDescriptor descriptor;
            try {
                descriptor = new EventDescriptor(id, version, EventDescriptor.CHANNEL_TRACELOGGING, level, opcode,
                        task, keyword);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
            TraceLoggingTags.check(where + " event", tags);
            if (fields.size() > MAX_FIELDS) {
                throw new IllegalArgumentException(where + " declares " + fields.size() + " fields; at most "
                        + MAX_FIELDS + " are allowed (struct headers count)");
            }
            byte[][] fieldNames = new byte[fields.size()][];
            List<TraceLoggingField> checked = new ArrayList<>(fields.size());
            for (int i = 0; i < fields.size(); i++) {
                Decl d = fields.get(i);
                String fw = where + " field #" + i + " '" + d.name() + "'";
                fieldNames[i] = utf8Name(fw, "field name", d.name());
                checked.add(validateField(fw, d));
            }
            checkStructCoverage(where);

            PayloadBuffer out = new PayloadBuffer(64);
            out.putUInt16(0); // size, patched below
            byte[] tagBytes = new byte[5];
            int tagLen = sdkMacroTags ? TraceLoggingTags.encodeAtLeastTwoBytes(tags, tagBytes, 0)
                    : TraceLoggingTags.encode(tags, tagBytes, 0);
            out.putBytes(tagBytes, 0, tagLen);
            out.putBytes(nameUtf8, 0, nameUtf8.length).putUInt8(0);
            for (int i = 0; i < checked.size(); i++) {
                TraceLoggingField f = checked.get(i);
                out.putBytes(fieldNames[i], 0, fieldNames[i].length).putUInt8(0);
                boolean hasOut = f.isStruct() || f.outType() != OutType.DEFAULT || f.tags() != 0;
                out.putUInt8(f.inType().code() | f.arity().flag() | (hasOut ? 0x80 : 0));
                if (hasOut) {
                    int outCode = f.isStruct() ? f.structMemberCount() : f.outType().code();
                    out.putUInt8(outCode | (f.tags() != 0 ? 0x80 : 0));
                    if (f.tags() != 0) {
                        tagLen = TraceLoggingTags.encode(f.tags(), tagBytes, 0);
                        out.putBytes(tagBytes, 0, tagLen);
                    }
                }
                if (f.arity() == Arity.FIXED_ARRAY) {
                    out.putUInt16(f.fixedCount());
                }
                if (out.length() > MAX_METADATA_SIZE) {
                    break; // reported below; avoids growing without bound
                }
            }
            if (out.length() > MAX_METADATA_SIZE) {
                throw new IllegalArgumentException(where + ": metadata would be at least " + out.length()
                        + " bytes; it must stay below 32768 "
                        + "(shorten names or declare fewer fields)");
            }
            out.setUInt16(0, out.length());
            return new TraceLoggingEvent(name, descriptor, tags, List.copyOf(checked), out.toByteArray());
        }

        private static TraceLoggingField validateField(String fw, Decl d) {
            InType t = d.type();
            if (t == null || d.out() == null || d.arity() == null) {
                throw new IllegalArgumentException(fw + ": " + (t == null ? "InType" : d.out() == null ? "OutType"
                        : "arity") + " must not be null");
            }
            if (!t.isWritable()) {
                throw new IllegalArgumentException(fw + ": InType " + t + " (" + t.code() + ") cannot be written"
                        + (t == InType.POINTER ? "; use HEXINT64 for pointers" : "; many decoders mishandle it"));
            }
            if (d.arity() == Arity.CUSTOM) {
                throw new IllegalArgumentException(fw + ": custom-schema fields are not supported");
            }
            if (t == InType.BINARY && d.arity().isArray()) {
                throw new IllegalArgumentException(fw + ": arrays of BINARY are not supported by decoders; "
                        + "use COUNTED_BINARY");
            }
            if (d.arity() == Arity.FIXED_ARRAY) {
                if (d.count() < 1 || d.count() > 0xFFFF) {
                    throw new IllegalArgumentException(fw + ": fixed array count must be 1-65535 (a count of 0 "
                            + "breaks some decoders), got " + d.count());
                }
            } else if (d.count() != 0) {
                throw new IllegalArgumentException(fw + ": only fixed arrays have a count");
            }
            if (t == InType.STRUCT) {
                if (d.members() < 1 || d.members() > MAX_STRUCT_MEMBERS) {
                    throw new IllegalArgumentException(fw + ": struct member count must be 1-127"
                            + (d.members() == 0 ? " (declare structs with struct())" : "") + ", got " + d.members());
                }
                if (d.out() != OutType.DEFAULT) {
                    throw new IllegalArgumentException(fw + ": a struct has no OutType (its OutMeta slot holds the "
                            + "member count)");
                }
            } else if (d.members() != 0) {
                throw new IllegalArgumentException(fw + ": only structs have members");
            }
            TraceLoggingTags.check(fw, d.tags());
            return new TraceLoggingField(d.name(), t, d.out(), d.tags(), d.arity(), d.count(), d.members());
        }

        /** Checks that each struct is followed by enough logical fields to be its members. */
        private void checkStructCoverage(String where) {
            int i = 0;
            while (i < fields.size()) {
                i = skipLogical(where, i);
            }
        }

        /** Index after the logical field starting at {@code i} (a struct with all its members). */
        private int skipLogical(String where, int i) {
            Decl f = fields.get(i);
            int next = i + 1;
            if (f.isStruct()) {
                for (int m = 0; m < f.members(); m++) {
                    if (next >= fields.size()) {
                        throw new IllegalArgumentException(where + " field #" + i + " '" + f.name() + "': struct "
                                + "declares " + f.members() + " members but only " + m + " follow");
                    }
                    next = skipLogical(where, next);
                }
            }
            return next;
        }

        private static byte[] utf8Name(String where, String what, String s) {
            if (s == null || s.isEmpty()) {
                throw new IllegalArgumentException(where + ": " + what + " must not be null or empty");
            }
            if (s.indexOf('\0') >= 0) {
                throw new IllegalArgumentException(where + ": " + what + " must not contain NUL (U+0000)");
            }
            try {
                ByteBuffer bb = StandardCharsets.UTF_8.newEncoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .encode(java.nio.CharBuffer.wrap(s));
                return Arrays.copyOfRange(bb.array(), bb.arrayOffset() + bb.position(),
                        bb.arrayOffset() + bb.limit());
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException(where + ": " + what + " is not valid UTF-16 (unpaired surrogate)",
                        e);
            }
        }
    }

    /** A declaration exactly as the caller gave it (possibly invalid); {@link Builder#build()} checks it. */
    private record Decl(String name, InType type, OutType out, int tags, Arity arity, int count, int members) {
        static Decl of(TraceLoggingField f) {
            return new Decl(f.name(), f.inType(), f.outType(), f.tags(), f.arity(), f.fixedCount(),
                    f.structMemberCount());
        }

        boolean isStruct() {
            return type == InType.STRUCT;
        }
    }
}
