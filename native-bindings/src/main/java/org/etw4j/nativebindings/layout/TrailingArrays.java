package org.etw4j.nativebindings.layout;

import org.etw4j.nativebindings.generated._EVENT_EXTENDED_ITEM_PMC_COUNTERS;
import org.etw4j.nativebindings.generated._EVENT_EXTENDED_ITEM_STACK_TRACE32;
import org.etw4j.nativebindings.generated._EVENT_EXTENDED_ITEM_STACK_TRACE64;
import org.etw4j.nativebindings.generated._EVENT_MAP_INFO;
import org.etw4j.nativebindings.generated._PROVIDER_ENUMERATION_INFO;
import org.etw4j.nativebindings.generated._PROVIDER_FIELD_INFOARRAY;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;

/**
 * The trailing {@code ANYSIZE_ARRAY} members of the generated ETW/TDH structures, with the field that counts
 * their elements named in each comment.
 *
 * <p>Constants only: immutable and thread-safe.
 */
public final class TrailingArrays {

    /** {@code TRACE_EVENT_INFO.EventPropertyInfoArray[PropertyCount]} of {@code EVENT_PROPERTY_INFO}. */
    public static final TrailingArray TRACE_EVENT_INFO_PROPERTIES =
            TrailingArray.of("TRACE_EVENT_INFO", _TRACE_EVENT_INFO.layout(), "EventPropertyInfoArray");
    /** {@code EVENT_MAP_INFO.MapEntryArray[EntryCount]} of {@code EVENT_MAP_ENTRY}. */
    public static final TrailingArray EVENT_MAP_INFO_ENTRIES =
            TrailingArray.of("EVENT_MAP_INFO", _EVENT_MAP_INFO.layout(), "MapEntryArray");
    /** {@code PROVIDER_ENUMERATION_INFO.TraceProviderInfoArray[NumberOfProviders]} of TRACE_PROVIDER_INFO. */
    public static final TrailingArray PROVIDER_ENUMERATION_INFO_PROVIDERS =
            TrailingArray.of("PROVIDER_ENUMERATION_INFO", _PROVIDER_ENUMERATION_INFO.layout(),
                    "TraceProviderInfoArray");
    /** {@code PROVIDER_FIELD_INFOARRAY.FieldInfoArray[NumberOfElements]} of {@code PROVIDER_FIELD_INFO}. */
    public static final TrailingArray PROVIDER_FIELD_INFOARRAY_FIELDS =
            TrailingArray.of("PROVIDER_FIELD_INFOARRAY", _PROVIDER_FIELD_INFOARRAY.layout(), "FieldInfoArray");
    /** {@code EVENT_EXTENDED_ITEM_STACK_TRACE32.Address[]}: count = (DataSize - 8) / 4. */
    public static final TrailingArray STACK_TRACE32_ADDRESSES =
            TrailingArray.of("EVENT_EXTENDED_ITEM_STACK_TRACE32", _EVENT_EXTENDED_ITEM_STACK_TRACE32.layout(),
                    "Address");
    /** {@code EVENT_EXTENDED_ITEM_STACK_TRACE64.Address[]}: count = (DataSize - 8) / 8. */
    public static final TrailingArray STACK_TRACE64_ADDRESSES =
            TrailingArray.of("EVENT_EXTENDED_ITEM_STACK_TRACE64", _EVENT_EXTENDED_ITEM_STACK_TRACE64.layout(),
                    "Address");
    /** {@code EVENT_EXTENDED_ITEM_PMC_COUNTERS.Counter[]}: count = DataSize / 8. */
    public static final TrailingArray PMC_COUNTERS =
            TrailingArray.of("EVENT_EXTENDED_ITEM_PMC_COUNTERS", _EVENT_EXTENDED_ITEM_PMC_COUNTERS.layout(),
                    "Counter");

    private TrailingArrays() {
    }
}
