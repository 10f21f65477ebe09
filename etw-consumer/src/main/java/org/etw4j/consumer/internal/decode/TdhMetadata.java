package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;

/**
 * Reads the TDH metadata some traces carry for their events (the "KernelTraceControl MetaData" events that
 * xperf/PerfView merges add: {@code EventInfo} = a {@code TRACE_EVENT_INFO} blob, {@code EventMapInfo} = a
 * provider GUID followed by an {@code EVENT_MAP_INFO} blob), so that events of providers whose manifests are
 * only registered on the recording machine still decode.
 * Stateless; thread-safe. Layouts: MS Learn "TRACE_EVENT_INFO structure (tdh.h)", "EVENT_PROPERTY_INFO",
 * "EVENT_MAP_INFO", "EVENT_MAP_ENTRY", "PROPERTY_FLAGS", "MAP_FLAGS": all offsets and strings are relative to
 * the start of the blob, strings are NUL-terminated UTF-16.
 * <pre>
 * TRACE_EVENT_INFO: GUID ProviderGuid @0; GUID EventGuid @16; EVENT_DESCRIPTOR @32 (Id u16, Version u8, Channel u8,
 *   Level u8, Opcode u8, Task u16, Keyword u64); u32 DecodingSource @48 (0 XML manifest, 1 WBEM/MOF, 2 WPP,
 *   3 TraceLogging); u32 offsets @52: ProviderName, LevelName, ChannelName, KeywordsName, TaskName, OpcodeName,
 *   EventMessage, ProviderMessage, BinaryXML, BinaryXMLSize, EventName, EventAttributes; u32 PropertyCount @100;
 *   u32 TopLevelPropertyCount @104; u32 Flags @108; EVENT_PROPERTY_INFO[PropertyCount] @112, 24 bytes each:
 *   u32 Flags; u32 NameOffset; (u16 InType, u16 OutType, u32 MapNameOffset) or (u16 StructStartIndex,
 *   u16 NumOfStructMembers, u32 pad); u16 count|countPropertyIndex; u16 length|lengthPropertyIndex; u32 tags.
 * EVENT_MAP_INFO: u32 NameOffset; u32 Flag (1 manifest value map, 2 manifest bit map, 4 pattern map, 8 WBEM value
 *   map, 16 WBEM bit map, 32 WBEM flag, 64 WBEM no map); u32 EntryCount; u32 ValueType/FormatStringOffset;
 *   EVENT_MAP_ENTRY[EntryCount] @16: u32 OutputOffset, u32 Value.
 * </pre>
 * Naming follows TraceEvent's reading of the same blobs ({@code RegisteredTraceEventParser.ParseEventMetaData}):
 * task and opcode names with spaces removed and {@code -} turned into {@code _}, a {@code win:} prefix dropped
 * from opcode names; map labels trimmed (TDH pads some with spaces).
 */
public final class TdhMetadata {

    /** The event class of the KernelTraceControl MetaData events (TraceEvent SymbolTraceEventParser). */
    public static final Guid METADATA_CLASS = Guid.parse("bbccf6c1-6cd1-48c4-80ff-839482e37671");
    /** Opcode of the EventInfo (TRACE_EVENT_INFO) event. */
    public static final int OPCODE_EVENT_INFO = 32;
    /** Opcode of the EventMapInfo (GUID + EVENT_MAP_INFO) event. */
    public static final int OPCODE_EVENT_MAP_INFO = 33;

    static final int PROPERTY_STRUCT = 0x1;
    static final int PROPERTY_PARAM_LENGTH = 0x2;
    static final int PROPERTY_PARAM_COUNT = 0x4;
    static final int PROPERTY_PARAM_FIXED_LENGTH = 0x10;
    static final int PROPERTY_PARAM_FIXED_COUNT = 0x20;

    private static final int PROPERTIES = 112;
    private static final int PROPERTY_SIZE = 24;
    /** More properties than any real event has: a guard against hostile counts. */
    private static final int MAX_PROPERTIES = 4096;

    private TdhMetadata() {
    }

    /**
     * What a TRACE_EVENT_INFO describes (immutable value; thread-safe).
     *
     * @param schema         the decoding schema (maps are resolved later, from the map events)
     * @param classic        whether the event is a classic (MOF) one, identified by (event GUID, opcode, version)
     * @param eventGuid      the event-class GUID (classic events)
     */
    public record EventInfo(EventSchema schema, boolean classic, Guid eventGuid) {
    }

    /**
     * Parses a TRACE_EVENT_INFO blob.
     *
     * @throws IllegalArgumentException when the blob is malformed (offsets or counts outside it)
     */
    public static EventInfo parseEventInfo(ByteBuffer blob) {
        ByteBuffer b = blob.slice().order(ByteOrder.LITTLE_ENDIAN);
        require(b, 0, PROPERTIES, "TRACE_EVENT_INFO header");
        Guid provider = Guid.readFrom(b, 0);
        Guid eventGuid = Guid.readFrom(b, 16);
        int id = b.getShort(32) & 0xFFFF;
        int version = b.get(34) & 0xFF;
        int opcode = b.get(37) & 0xFF;
        int task = b.getShort(38) & 0xFFFF;
        int decodingSource = b.getInt(48);
        String providerName = string(b, b.getInt(52));
        String taskName = string(b, b.getInt(68));
        String opcodeName = string(b, b.getInt(72));
        String message = string(b, b.getInt(76));
        int propertyCount = b.getInt(100);
        int topLevel = b.getInt(104);
        if (propertyCount < 0 || propertyCount > MAX_PROPERTIES || topLevel < 0 || topLevel > propertyCount) {
            throw new IllegalArgumentException("bad property counts " + topLevel + "/" + propertyCount);
        }
        require(b, PROPERTIES, propertyCount * PROPERTY_SIZE, "EVENT_PROPERTY_INFO array");
        String[] names = new String[propertyCount];
        for (int i = 0; i < propertyCount; i++) {
            String n = string(b, b.getInt(PROPERTIES + i * PROPERTY_SIZE + 4));
            names[i] = n == null ? "Field" + i : n;
        }
        int[] budget = {propertyCount};
        List<FieldSpec> fields = properties(b, names, 0, topLevel, 0, budget);

        if (taskName != null) {
            taskName = legal(taskName);
        }
        if (opcodeName != null) {
            opcodeName = legal(opcodeName.startsWith("win:") ? opcodeName.substring(4) : opcodeName);
        }
        boolean classic = decodingSource == 1;
        String fallback = "EventID(" + id + ")";
        String eventName = EventSchema.traceEventName(taskName, opcode, opcodeName, fallback);
        EventSchema s = new EventSchema(classic ? eventGuid : provider, providerName == null ? ProviderNames.nameOrId(provider)
                : providerName.trim(), classic ? opcode : id, version, task, opcode, taskName, opcodeName, eventName,
                message, fields, Map.of(), SchemaSource.TDH_METADATA);
        return new EventInfo(s, classic, eventGuid);
    }

    private static List<FieldSpec> properties(ByteBuffer b, String[] names, int start, int count, int depth,
                                              int[] budget) {
        if (depth > 8 || start < 0 || count < 0 || start + count > names.length) {
            throw new IllegalArgumentException("bad property range " + start + "+" + count);
        }
        List<FieldSpec> out = new ArrayList<>(count);
        for (int i = start; i < start + count; i++) {
            if (--budget[0] < 0) {
                throw new IllegalArgumentException("struct members overlap");
            }
            int at = PROPERTIES + i * PROPERTY_SIZE;
            int flags = b.getInt(at);
            int countField = b.getShort(at + 16) & 0xFFFF;
            int lengthField = b.getShort(at + 18) & 0xFFFF;
            SizeRule countRule = SizeRule.none();
            if ((flags & PROPERTY_PARAM_COUNT) != 0) {
                countRule = SizeRule.ref(nameAt(names, countField));
            } else if ((flags & PROPERTY_PARAM_FIXED_COUNT) != 0 || countField > 1) {
                countRule = SizeRule.of(countField);
            }
            if ((flags & PROPERTY_STRUCT) != 0) {
                int first = b.getShort(at + 8) & 0xFFFF;
                int members = b.getShort(at + 10) & 0xFFFF;
                out.add(new StructSpec(names[i], properties(b, names, first, members, depth + 1, budget), countRule));
                continue;
            }
            int inCode = b.getShort(at + 8) & 0xFFFF;
            int outCode = b.getShort(at + 10) & 0xFFFF;
            InType in = InType.fromCode(inCode);
            if (in == null) {
                in = InType.BINARY;
            }
            SizeRule lengthRule = SizeRule.none();
            if ((flags & PROPERTY_PARAM_LENGTH) != 0) {
                lengthRule = SizeRule.ref(nameAt(names, lengthField));
            } else if (((flags & PROPERTY_PARAM_FIXED_LENGTH) != 0 || lengthField > 0) && in.fixedSize(8) < 0
                    && in != InType.POINTER && in != InType.SIZET) {
                lengthRule = SizeRule.of(lengthField);
            }
            String mapName = string(b, b.getInt(at + 12));
            out.add(new DataSpec(names[i], in, OutType.fromCode(outCode), mapName, lengthRule, countRule));
        }
        return out;
    }

    private static String nameAt(String[] names, int index) {
        if (index >= names.length) {
            throw new IllegalArgumentException("length/count property index " + index + " past " + names.length);
        }
        return names[index];
    }

    /**
     * A parsed EventMapInfo payload (immutable value; thread-safe).
     *
     * @param provider the provider the map belongs to
     * @param map      the map (value map or bit map)
     */
    public record MapInfo(Guid provider, ValueMap map) {
    }

    /**
     * Parses an EventMapInfo payload (provider GUID then EVENT_MAP_INFO). Only manifest value maps and bit maps
     * are supported (as in TraceEvent); others return {@code null}.
     *
     * @throws IllegalArgumentException when the blob is malformed
     */
    public static MapInfo parseMapInfo(ByteBuffer payload) {
        ByteBuffer p = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
        require(p, 0, 16 + 16, "EventMapInfo");
        Guid provider = Guid.readFrom(p, 0);
        ByteBuffer b = p.slice(16, p.limit() - 16).order(ByteOrder.LITTLE_ENDIAN);
        String name = string(b, b.getInt(0));
        int flag = b.getInt(4);
        int entries = b.getInt(8);
        if (name == null || (flag != 1 && flag != 2)) {
            return null;
        }
        if (entries < 0 || entries > MAX_PROPERTIES * 16) {
            throw new IllegalArgumentException("bad entry count " + entries);
        }
        require(b, 16, entries * 8, "EVENT_MAP_ENTRY array");
        TreeMap<Long, String> m = new TreeMap<>();
        for (int i = 0; i < entries; i++) {
            String label = string(b, b.getInt(16 + 8 * i));
            if (label != null) {
                m.put(b.getInt(16 + 8 * i + 4) & 0xFFFF_FFFFL, label.trim());
            }
        }
        return new MapInfo(provider, new ValueMap(name.trim(), flag == 2, m));
    }

    private static String legal(String name) {
        return name.replace(" ", "").replace("-", "_");
    }

    private static void require(ByteBuffer b, int off, long len, String what) {
        if (off < 0 || len < 0 || off + len > b.limit()) {
            throw new IllegalArgumentException(what + " [" + off + ", +" + len + ") outside " + b.limit() + " bytes");
        }
    }

    /** The NUL-terminated UTF-16 string at {@code offset}, or {@code null} for offset 0. */
    private static String string(ByteBuffer b, int offset) {
        if (offset == 0) {
            return null;
        }
        if (offset < 0 || offset >= b.limit()) {
            throw new IllegalArgumentException("string offset " + offset + " outside " + b.limit() + " bytes");
        }
        int end = offset;
        while (end + 1 < b.limit() && b.getShort(end) != 0) {
            end += 2;
        }
        byte[] raw = new byte[end - offset];
        b.get(offset, raw);
        return new String(raw, StandardCharsets.UTF_16LE);
    }
}
