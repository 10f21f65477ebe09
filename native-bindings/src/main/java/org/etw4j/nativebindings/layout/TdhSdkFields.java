package org.etw4j.nativebindings.layout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import org.etw4j.nativebindings.generated._EVENT_PROPERTY_INFO;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;

/**
 * Members of TDH structures that the Windows SDK's tdh.h declares and mingw-w64's does not, so the generated
 * classes lack them. They alias storage that the generated layouts do have (Microsoft Learn,
 * "TRACE_EVENT_INFO structure (tdh.h)" and "EVENT_PROPERTY_INFO structure (tdh.h)"):
 * <ul>
 *   <li>{@code TRACE_EVENT_INFO.EventNameOffset} shares a union with {@code ActivityIDNameOffset} and
 *       {@code EventAttributesOffset} one with {@code RelatedActivityIDNameOffset} (TraceLogging and
 *       manifest events with a name use the former meaning);</li>
 *   <li>{@code TRACE_EVENT_INFO.Tags:28} is bits 4..31 of the word holding {@code Flags};</li>
 *   <li>{@code EVENT_PROPERTY_INFO.Tags:28} is bits 0..27 of {@code Reserved}.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe: static accessors over buffers the caller owns (typically filled by
 * TdhGetEventInformation); the strings read are copies.
 */
public final class TdhSdkFields {

    /** Offset of {@code TRACE_EVENT_INFO.EventNameOffset} (union with {@code ActivityIDNameOffset}). */
    public static final long EVENT_NAME_OFFSET = _TRACE_EVENT_INFO.ActivityIDNameOffset$offset();
    /** Offset of {@code TRACE_EVENT_INFO.EventAttributesOffset} (union with RelatedActivityIDNameOffset). */
    public static final long EVENT_ATTRIBUTES_OFFSET = _TRACE_EVENT_INFO.RelatedActivityIDNameOffset$offset();
    /** {@code TRACE_EVENT_INFO.Tags:28}, above the 4 bits of {@code TEMPLATE_FLAGS} in the {@code Flags} word. */
    public static final BitField EVENT_TAGS =
            new BitField("Tags", _TRACE_EVENT_INFO.Flags$offset(), 4, 4, 28);
    /** {@code EVENT_PROPERTY_INFO.Tags:28}, low bits of the {@code Reserved} word. */
    public static final BitField PROPERTY_TAGS =
            new BitField("Tags", _EVENT_PROPERTY_INFO.Reserved$offset(), 4, 0, 28);

    private TdhSdkFields() {
    }

    /** {@code TRACE_EVENT_INFO.EventNameOffset}: offset of the event name in the buffer, 0 if none. */
    public static int eventNameOffset(MemorySegment traceEventInfo) {
        return traceEventInfo.get(ValueLayout.JAVA_INT, EVENT_NAME_OFFSET);
    }

    /** {@code TRACE_EVENT_INFO.EventAttributesOffset}: offset of the attributes string, 0 if none. */
    public static int eventAttributesOffset(MemorySegment traceEventInfo) {
        return traceEventInfo.get(ValueLayout.JAVA_INT, EVENT_ATTRIBUTES_OFFSET);
    }

    /**
     * The NUL-terminated UTF-16 string at {@code offset} in a TDH buffer (the {@code *Offset} fields of
     * TRACE_EVENT_INFO, EVENT_MAP_INFO, PROVIDER_ENUMERATION_INFO...), or null when {@code offset} is 0.
     */
    public static String stringAt(MemorySegment buffer, int offset) {
        return offset == 0 ? null : buffer.getString(Integer.toUnsignedLong(offset), StandardCharsets.UTF_16LE);
    }
}
