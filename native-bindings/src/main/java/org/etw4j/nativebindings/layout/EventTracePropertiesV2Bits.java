package org.etw4j.nativebindings.layout;

import org.etw4j.nativebindings.generated._EVENT_TRACE_PROPERTIES_V2;

/**
 * The bit-fields of {@code EVENT_TRACE_PROPERTIES_V2} (evntrace.h), which jextract leaves as padding in the
 * otherwise generated {@link _EVENT_TRACE_PROPERTIES_V2}: {@code VersionNumber:8} in {@code V2Control},
 * {@code Wow:1} and {@code QpcDeltaTracking:1} in {@code V2Options}.
 *
 * <p>Constants only: immutable and thread-safe. A V2 structure is recognised by ETW when
 * {@code Wnode.Flags} has {@code WNODE_FLAG_VERSIONED_PROPERTIES} and {@code VersionNumber} is 2.
 */
public final class EventTracePropertiesV2Bits {

    /** {@code VersionNumber:8}, low byte of {@code V2Control}; 2 for this structure. */
    public static final BitField VERSION_NUMBER =
            new BitField("VersionNumber", _EVENT_TRACE_PROPERTIES_V2.V2Control$offset(), 4, 0, 8);
    /** {@code Wow:1}, bit 0 of {@code V2Options}: set by ETW for a 32-bit caller on 64-bit Windows. */
    public static final BitField WOW =
            new BitField("Wow", _EVENT_TRACE_PROPERTIES_V2.V2Options$offset(), 8, 0, 1);
    /** {@code QpcDeltaTracking:1}, bit 1 of {@code V2Options}. */
    public static final BitField QPC_DELTA_TRACKING =
            new BitField("QpcDeltaTracking", _EVENT_TRACE_PROPERTIES_V2.V2Options$offset(), 8, 1, 1);

    /** The {@code VersionNumber} that marks an {@code EVENT_TRACE_PROPERTIES_V2}. */
    public static final int VERSION_2 = 2;

    private EventTracePropertiesV2Bits() {
    }
}
