package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.EventField;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._EVENT_PROPERTY_INFO;
import org.etw4j.nativebindings.generated._PROPERTY_DATA_DESCRIPTOR;
import org.etw4j.nativebindings.generated._TRACE_EVENT_INFO;
import org.etw4j.nativebindings.layout.TdhSdkFields;
import org.etw4j.nativebindings.layout.TrailingArrays;

/**
 * Field values as Windows' TDH extracts them ({@code TdhGetPropertySize}, {@code TdhGetProperty}: MS Learn, "Using
 * TdhGetProperty to consume event data"), to compare with etw4j's own decoding of the same record (issue 21, item
 * 13: values through TDH and through etw4j's decoders). Windows only: call it inside the event callback.
 *
 * <p>Test helper; stateless. Top-level properties only; structs are left out (named in the result of
 * {@link #assertEtw4jAgrees}).
 */
final class TdhProperties {
    /** {@code PROPERTY_FLAGS.PropertyStruct} (tdh.h). */
    private static final int PROPERTY_STRUCT = 0x1;

    private TdhProperties() {
    }

    /** The TDH schema's provider name (TRACE_EVENT_INFO.ProviderNameOffset), e.g. the TraceLogging traits' name. */
    static String providerName(EventRecordView r) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = Tdh.eventInformation(r, a);
            return TdhSdkFields.stringAt(info, _TRACE_EVENT_INFO.ProviderNameOffset(info));
        }
    }

    /** Each top-level property's bytes as TdhGetProperty returns them, by name, in schema order. */
    static Map<String, byte[]> topLevel(EventRecordView r) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = Tdh.eventInformation(r, a);
            int n = _TRACE_EVENT_INFO.TopLevelPropertyCount(info);
            for (int i = 0; i < n; i++) {
                MemorySegment prop = TrailingArrays.TRACE_EVENT_INFO_PROPERTIES.element(info, i);
                if ((_EVENT_PROPERTY_INFO.Flags(prop) & PROPERTY_STRUCT) != 0) {
                    continue;
                }
                int nameOffset = _EVENT_PROPERTY_INFO.NameOffset(prop);
                String name = TdhSdkFields.stringAt(info, nameOffset);
                MemorySegment descriptor = a.allocate(_PROPERTY_DATA_DESCRIPTOR.layout());
                // PropertyName is the address of the name inside the TRACE_EVENT_INFO; ArrayIndex ULONG_MAX asks
                // for the whole property (MS Learn, PROPERTY_DATA_DESCRIPTOR)
                _PROPERTY_DATA_DESCRIPTOR.PropertyName(descriptor, info.address() + nameOffset);
                _PROPERTY_DATA_DESCRIPTOR.ArrayIndex(descriptor, -1);
                MemorySegment size = a.allocate(ValueLayout.JAVA_INT);
                int status = EtwNative.TdhGetPropertySize(r.eventRecord(), 0, MemorySegment.NULL, 1, descriptor, size);
                assertEquals(0, status, "TdhGetPropertySize(" + name + ")");
                int length = size.get(ValueLayout.JAVA_INT, 0);
                MemorySegment buffer = a.allocate(Math.max(1, length));
                status = EtwNative.TdhGetProperty(r.eventRecord(), 0, MemorySegment.NULL, 1, descriptor, length, buffer);
                assertEquals(0, status, "TdhGetProperty(" + name + ")");
                out.put(name, buffer.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
            }
        }
        return out;
    }

    /**
     * Asserts that every field etw4j decoded has the value TDH extracted for it, for integers (compared as the
     * unsigned little-endian number of TDH's bytes, masked to their width) and strings (UTF-16LE, or the ANSI code
     * page's ASCII range, without the terminating NUL); returns the names compared. Fields of other types are not
     * compared and not returned: the caller asserts which names it needed compared.
     */
    static List<String> assertEtw4jAgrees(Map<String, byte[]> tdh, DecodedEvent etw4j) {
        List<String> compared = new ArrayList<>();
        for (EventField f : etw4j.fields()) {
            byte[] bytes = tdh.get(f.name());
            assertNotNull(bytes, "TDH has no property " + f.name() + " of " + etw4j + "; TDH: " + tdh.keySet());
            Object v = f.value();
            String in = f.inType() == null ? "" : f.inType().name();
            if (v instanceof Number number && (bytes.length == 1 || bytes.length == 2 || bytes.length == 4
                    || bytes.length == 8) && !in.equals("FLOAT") && !in.equals("DOUBLE")) {
                long mask = bytes.length == 8 ? -1L : (1L << (bytes.length * 8)) - 1;
                long tdhValue = padded(bytes).getLong(0) & mask;
                assertEquals(tdhValue, number.longValue() & mask, f.name() + ": TDH's bytes against etw4j's value");
                compared.add(f.name());
            } else if (v instanceof String s && (in.equals("UNICODE_STRING") || in.equals("ANSI_STRING"))) {
                String tdhValue = in.equals("UNICODE_STRING") ? new String(bytes, StandardCharsets.UTF_16LE)
                        : new String(bytes, StandardCharsets.ISO_8859_1);
                int nul = tdhValue.indexOf('\0');
                assertEquals(nul >= 0 ? tdhValue.substring(0, nul) : tdhValue, s, f.name() + ": TDH against etw4j");
                compared.add(f.name());
            }
        }
        return compared;
    }

    private static ByteBuffer padded(byte[] b) {
        return ByteBuffer.wrap(java.util.Arrays.copyOf(b, 8)).order(ByteOrder.LITTLE_ENDIAN);
    }
}
