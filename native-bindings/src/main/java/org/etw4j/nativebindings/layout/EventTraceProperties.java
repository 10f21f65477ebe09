package org.etw4j.nativebindings.layout;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES;
import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES_V2;
import org.etw4j.nativebindings.generated._WNODE_HEADER;

/**
 * The variable-length buffer that StartTraceW, ControlTraceW and QueryAllTracesW take: an
 * {@code EVENT_TRACE_PROPERTIES} (or {@code _V2}) followed by the session name and the log file name as
 * NUL-terminated UTF-16 strings, located by {@code LoggerNameOffset} and {@code LogFileNameOffset}
 * (Microsoft Learn, "EVENT_TRACE_PROPERTIES structure (evntrace.h)": the names follow the structure in the
 * same allocation; a real-time-only session has {@code LogFileNameOffset} 0).
 *
 * <p>Stateless and thread-safe: static factories. Each buffer returned belongs to the caller's allocator
 * (its arena decides lifetime and thread confinement) and is filled with zeros except for the size and
 * name fields set here; the caller sets the rest (Wnode.Guid, ClientContext, LogFileMode, ...).
 * Layout: {@code struct { EVENT_TRACE_PROPERTIES Properties; WCHAR LoggerName[n]; WCHAR LogFileName[m]; }}
 * padded to 8 bytes, which the module's ABI test checks against x86_64-w64-mingw32-gcc.
 */
public final class EventTraceProperties {

    /** Member name of the fixed part in {@link #layout}. */
    public static final String PROPERTIES = "Properties";
    /** Member name of the session name characters in {@link #layout}. */
    public static final String LOGGER_NAME = "LoggerName";
    /** Member name of the log file name characters in {@link #layout}. */
    public static final String LOG_FILE_NAME = "LogFileName";

    private EventTraceProperties() {
    }

    /**
     * Layout of a properties buffer whose names hold {@code loggerNameChars} and {@code logFileNameChars}
     * UTF-16 units, terminating NULs included; 0 leaves that name out.
     *
     * @param fixedPart {@code _EVENT_TRACE_PROPERTIES.layout()} or {@code _EVENT_TRACE_PROPERTIES_V2.layout()}
     */
    public static StructLayout layout(GroupLayout fixedPart, int loggerNameChars, int logFileNameChars) {
        Objects.requireNonNull(fixedPart, "fixedPart");
        if (loggerNameChars < 0 || logFileNameChars < 0) {
            throw new IllegalArgumentException("negative name length");
        }
        List<MemoryLayout> members = new ArrayList<>();
        members.add(fixedPart.withName(PROPERTIES));
        long size = fixedPart.byteSize();
        if (loggerNameChars > 0) {
            members.add(MemoryLayout.sequenceLayout(loggerNameChars, ValueLayout.JAVA_CHAR).withName(LOGGER_NAME));
            size += 2L * loggerNameChars;
        }
        if (logFileNameChars > 0) {
            members.add(MemoryLayout.sequenceLayout(logFileNameChars, ValueLayout.JAVA_CHAR).withName(LOG_FILE_NAME));
            size += 2L * logFileNameChars;
        }
        long align = fixedPart.byteAlignment();
        long padded = (size + align - 1) / align * align;
        if (padded > size) {
            members.add(MemoryLayout.paddingLayout(padded - size));
        }
        return MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new));
    }

    /**
     * Allocates an {@code EVENT_TRACE_PROPERTIES} buffer for StartTraceW / ControlTraceW holding
     * {@code loggerName} and, unless null, {@code logFileName}; sets {@code Wnode.BufferSize} and both offsets.
     */
    public static MemorySegment allocate(SegmentAllocator allocator, String loggerName, String logFileName) {
        return allocate(allocator, _EVENT_TRACE_PROPERTIES.layout(), loggerName, logFileName);
    }

    /**
     * Like {@link #allocate} for {@code EVENT_TRACE_PROPERTIES_V2}: also sets
     * {@code WNODE_FLAG_VERSIONED_PROPERTIES} in {@code Wnode.Flags} and {@code VersionNumber} 2.
     */
    public static MemorySegment allocateV2(SegmentAllocator allocator, String loggerName, String logFileName) {
        MemorySegment buffer = allocate(allocator, _EVENT_TRACE_PROPERTIES_V2.layout(), loggerName, logFileName);
        MemorySegment wnode = _EVENT_TRACE_PROPERTIES_V2.Wnode(buffer);
        _WNODE_HEADER.Flags(wnode, _WNODE_HEADER.Flags(wnode) | EtwNative.WNODE_FLAG_VERSIONED_PROPERTIES());
        EventTracePropertiesV2Bits.VERSION_NUMBER.set(buffer, EventTracePropertiesV2Bits.VERSION_2);
        return buffer;
    }

    /**
     * Allocates a buffer to receive properties (ControlTraceW query, QueryAllTracesW): room for names of up to
     * {@code maxNameChars} UTF-16 units each, terminating NUL included; sets {@code Wnode.BufferSize} and both
     * offsets so that ETW writes the names there.
     */
    public static MemorySegment allocateForQuery(SegmentAllocator allocator, int maxNameChars) {
        if (maxNameChars < 1) {
            throw new IllegalArgumentException("maxNameChars must be at least 1: " + maxNameChars);
        }
        GroupLayout fixed = _EVENT_TRACE_PROPERTIES.layout();
        StructLayout layout = layout(fixed, maxNameChars, maxNameChars);
        MemorySegment buffer = zeroed(allocator, layout);
        setSizeAndOffsets(buffer, layout, true, true);
        return buffer;
    }

    /** The session name at {@code LoggerNameOffset}, or null when that offset is 0. */
    public static String loggerName(MemorySegment buffer) {
        return stringAt(buffer, _EVENT_TRACE_PROPERTIES.LoggerNameOffset(buffer));
    }

    /** The log file name at {@code LogFileNameOffset}, or null when that offset is 0. */
    public static String logFileName(MemorySegment buffer) {
        return stringAt(buffer, _EVENT_TRACE_PROPERTIES.LogFileNameOffset(buffer));
    }

    private static MemorySegment allocate(SegmentAllocator allocator, GroupLayout fixed, String loggerName,
                                          String logFileName) {
        Objects.requireNonNull(allocator, "allocator");
        requireName(loggerName, "loggerName");
        if (logFileName != null) {
            requireName(logFileName, "logFileName");
        }
        int loggerChars = loggerName.length() + 1;
        int fileChars = logFileName == null ? 0 : logFileName.length() + 1;
        StructLayout layout = layout(fixed, loggerChars, fileChars);
        MemorySegment buffer = zeroed(allocator, layout);
        setSizeAndOffsets(buffer, layout, true, logFileName != null);
        buffer.setString(_EVENT_TRACE_PROPERTIES.LoggerNameOffset(buffer), loggerName, StandardCharsets.UTF_16LE);
        if (logFileName != null) {
            buffer.setString(_EVENT_TRACE_PROPERTIES.LogFileNameOffset(buffer), logFileName,
                    StandardCharsets.UTF_16LE);
        }
        return buffer;
    }

    private static MemorySegment zeroed(SegmentAllocator allocator, StructLayout layout) {
        MemorySegment buffer = allocator.allocate(layout);
        buffer.fill((byte) 0); // arbitrary allocators (slicing, pooled) do not promise zeroed memory
        return buffer;
    }

    // LoggerNameOffset and LogFileNameOffset sit at the same place in EVENT_TRACE_PROPERTIES and _V2,
    // which both start with the same members; the ABI test checks both layouts.
    private static void setSizeAndOffsets(MemorySegment buffer, StructLayout layout, boolean logger, boolean file) {
        _WNODE_HEADER.BufferSize(_EVENT_TRACE_PROPERTIES.Wnode(buffer), Math.toIntExact(layout.byteSize()));
        _EVENT_TRACE_PROPERTIES.LoggerNameOffset(buffer, logger ? offsetOf(layout, LOGGER_NAME) : 0);
        _EVENT_TRACE_PROPERTIES.LogFileNameOffset(buffer, file ? offsetOf(layout, LOG_FILE_NAME) : 0);
    }

    private static int offsetOf(StructLayout layout, String member) {
        return Math.toIntExact(layout.byteOffset(MemoryLayout.PathElement.groupElement(member)));
    }

    private static void requireName(String name, String what) {
        Objects.requireNonNull(name, what);
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " must be non-empty and free of NUL characters");
        }
    }

    private static String stringAt(MemorySegment buffer, int offset) {
        return offset == 0 ? null : buffer.getString(Integer.toUnsignedLong(offset), StandardCharsets.UTF_16LE);
    }
}
