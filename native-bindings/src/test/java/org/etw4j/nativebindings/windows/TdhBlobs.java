package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated._EVENT_DESCRIPTOR;
import org.etw4j.nativebindings.generated._EVENT_MAP_ENTRY;
import org.etw4j.nativebindings.generated._EVENT_MAP_INFO;
import org.etw4j.nativebindings.generated._EVENT_PROPERTY_INFO;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;
import org.etw4j.nativebindings.layout.TrailingArrays;

/**
 * Builds the TDH answers the stand-in engine gives for a test provider, the way tdh.dll lays them out: a
 * {@code TRACE_EVENT_INFO} (fixed part, {@code EVENT_PROPERTY_INFO[PropertyCount]}, then NUL-terminated UTF-16
 * strings that the {@code *Offset} fields point at, relative to the start) and an {@code EVENT_MAP_INFO}. Every
 * offset comes from the generated layouts, which WindowsAbiTest checks against mingw-w64's tdh.h.
 *
 * <p>Test helper: a builder is not thread-safe; the byte arrays it returns are the caller's.
 */
final class TdhBlobs {
    /** {@code PROPERTY_FLAGS}: PropertyParamLength (tdh.h). */
    static final int PROPERTY_PARAM_LENGTH = 0x2;
    /** {@code MAP_FLAGS}: EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP / _BITMAP (tdh.h). */
    static final int MAP_VALUE = 0x1;
    static final int MAP_BITS = 0x2;

    private TdhBlobs() {
    }

    /** One top-level, non-struct property. */
    record Property(String name, int inType, int outType, String mapName, int flags, int count, int length) {
        static Property of(String name, int inType) {
            return new Property(name, inType, 0, null, 0, 1, 0);
        }

        static Property mapped(String name, int inType, String mapName) {
            return new Property(name, inType, 0, mapName, 0, 1, 0);
        }
    }

    /** A TRACE_EVENT_INFO of a manifest event (DecodingSource 0). */
    static final class EventInfo {
        private final Guid provider;
        private final int id;
        private final int version;
        private final int opcode;
        private final int task;
        private final Map<Long, String> strings = new LinkedHashMap<>();
        private final List<Property> properties = new ArrayList<>();

        EventInfo(Guid provider, int id, int version, int opcode, int task) {
            this.provider = provider;
            this.id = id;
            this.version = version;
            this.opcode = opcode;
            this.task = task;
        }

        EventInfo providerName(String s) {
            return string(_TRACE_EVENT_INFO.ProviderNameOffset$offset(), s);
        }

        EventInfo taskName(String s) {
            return string(_TRACE_EVENT_INFO.TaskNameOffset$offset(), s);
        }

        EventInfo opcodeName(String s) {
            return string(_TRACE_EVENT_INFO.OpcodeNameOffset$offset(), s);
        }

        EventInfo message(String s) {
            return string(_TRACE_EVENT_INFO.EventMessageOffset$offset(), s);
        }

        EventInfo property(Property p) {
            properties.add(p);
            return this;
        }

        /** {@code s} at {@code field}; null leaves the offset 0 (no such string), as TDH does. */
        private EventInfo string(long field, String s) {
            if (s != null) {
                strings.put(field, s);
            }
            return this;
        }

        byte[] build() {
            long fixed = TrailingArrays.TRACE_EVENT_INFO_PROPERTIES.offsetOf(properties.size());
            List<String> all = new ArrayList<>(strings.values());
            for (Property p : properties) {
                all.add(p.name());
                if (p.mapName() != null) {
                    all.add(p.mapName());
                }
            }
            long size = fixed;
            for (String s : all) {
                size += 2L * (s.length() + 1);
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment info = a.allocate(size, 8);
                info.fill((byte) 0);
                NativeGuids.write(info, _TRACE_EVENT_INFO.ProviderGuid$offset(), provider);
                long d = _TRACE_EVENT_INFO.EventDescriptor$offset();
                info.set(ValueLayout.JAVA_SHORT, d + _EVENT_DESCRIPTOR.Id$offset(), (short) id);
                info.set(ValueLayout.JAVA_BYTE, d + _EVENT_DESCRIPTOR.Version$offset(), (byte) version);
                info.set(ValueLayout.JAVA_BYTE, d + _EVENT_DESCRIPTOR.Opcode$offset(), (byte) opcode);
                info.set(ValueLayout.JAVA_SHORT, d + _EVENT_DESCRIPTOR.Task$offset(), (short) task);
                _TRACE_EVENT_INFO.DecodingSource(info, Tdh.DECODING_SOURCE_XML_FILE);
                _TRACE_EVENT_INFO.PropertyCount(info, properties.size());
                _TRACE_EVENT_INFO.TopLevelPropertyCount(info, properties.size());
                long[] next = {fixed};
                for (Map.Entry<Long, String> s : strings.entrySet()) {
                    info.set(ValueLayout.JAVA_INT, s.getKey(), put(info, next, s.getValue()));
                }
                long nonStruct = _EVENT_PROPERTY_INFO.nonStructType$offset();
                for (int i = 0; i < properties.size(); i++) {
                    Property p = properties.get(i);
                    MemorySegment prop = TrailingArrays.TRACE_EVENT_INFO_PROPERTIES.element(info, i);
                    _EVENT_PROPERTY_INFO.Flags(prop, p.flags());
                    _EVENT_PROPERTY_INFO.NameOffset(prop, put(info, next, p.name()));
                    prop.set(ValueLayout.JAVA_SHORT, nonStruct + _EVENT_PROPERTY_INFO.nonStructType.InType$offset(),
                            (short) p.inType());
                    prop.set(ValueLayout.JAVA_SHORT, nonStruct + _EVENT_PROPERTY_INFO.nonStructType.OutType$offset(),
                            (short) p.outType());
                    if (p.mapName() != null) {
                        prop.set(ValueLayout.JAVA_INT, nonStruct
                                + _EVENT_PROPERTY_INFO.nonStructType.MapNameOffset$offset(), put(info, next, p.mapName()));
                    }
                    _EVENT_PROPERTY_INFO.count(prop, (short) p.count());
                    _EVENT_PROPERTY_INFO.length(prop, (short) p.length());
                }
                return info.toArray(ValueLayout.JAVA_BYTE);
            }
        }
    }

    /** An EVENT_MAP_INFO: a manifest value map ({@code bitMap} false) or bit map, entries in order. */
    static byte[] valueMap(String name, boolean bitMap, long[] values, String[] labels) {
        long fixed = TrailingArrays.EVENT_MAP_INFO_ENTRIES.offsetOf(values.length);
        long size = fixed + 2L * (name.length() + 1);
        for (String l : labels) {
            size += 2L * (l.length() + 1);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment map = a.allocate(size, 8);
            map.fill((byte) 0);
            long[] next = {fixed};
            _EVENT_MAP_INFO.NameOffset(map, put(map, next, name));
            _EVENT_MAP_INFO.Flag(map, bitMap ? MAP_BITS : MAP_VALUE);
            _EVENT_MAP_INFO.EntryCount(map, values.length);
            for (int i = 0; i < values.length; i++) {
                MemorySegment entry = TrailingArrays.EVENT_MAP_INFO_ENTRIES.element(map, i);
                _EVENT_MAP_ENTRY.OutputOffset(entry, put(map, next, labels[i]));
                entry.set(ValueLayout.JAVA_INT, _EVENT_MAP_ENTRY.Value$offset(), (int) values[i]);
            }
            return map.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** Writes {@code s} NUL-terminated at {@code next[0]}, advances it, returns the offset written at. */
    private static int put(MemorySegment buffer, long[] next, String s) {
        long at = next[0];
        buffer.setString(at, s, StandardCharsets.UTF_16LE);
        next[0] = at + 2L * (s.length() + 1);
        return (int) at;
    }
}
