package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.generated._PROVIDER_ENUMERATION_INFO;
import org.etw4j.nativebindings.generated._TRACE_PROVIDER_INFO;

/**
 * The providers registered on the machine, by name: {@code TdhEnumerateProviders} (MS Learn: "Retrieves a list of
 * providers that have registered a MOF class or manifest file on the computer"), read from the
 * PROVIDER_ENUMERATION_INFO it fills: NumberOfProviders, then TRACE_PROVIDER_INFO entries whose
 * ProviderNameOffset is from the start of that buffer to a NUL-terminated UTF-16 name (MS Learn,
 * TRACE_PROVIDER_INFO). Called first with no buffer for the size (ERROR_INSUFFICIENT_BUFFER), as TDH's callers do;
 * tried again if the list grew in between.
 *
 * <p>Stateless; thread-safe; each call uses a confined arena of its own.
 */
final class RegisteredProviders {
    private static final int ATTEMPTS = 4;

    private RegisteredProviders() {
    }

    /**
     * Name to GUID, in TDH's order; the first of two providers with the same name wins.
     *
     * @throws org.etw4j.EtwException naming TdhEnumerateProviders when it fails
     */
    static Map<String, Guid> list() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment size = call.allocate(ValueLayout.JAVA_INT);
            MemorySegment buffer = MemorySegment.NULL;
            int status = Win32Errors.ERROR_INSUFFICIENT_BUFFER;
            for (int attempt = 0; attempt < ATTEMPTS && status == Win32Errors.ERROR_INSUFFICIENT_BUFFER; attempt++) {
                size.set(ValueLayout.JAVA_INT, 0, (int) buffer.byteSize());
                status = EtwNative.TdhEnumerateProviders(buffer, size);
                if (status == Win32Errors.ERROR_INSUFFICIENT_BUFFER) {
                    buffer = call.allocate(Integer.toUnsignedLong(size.get(ValueLayout.JAVA_INT, 0)), 8);
                }
            }
            Win32Errors.check("TdhEnumerateProviders", status, "listing the providers registered on this machine");
            return read(buffer);
        }
    }

    /** The entries of a filled PROVIDER_ENUMERATION_INFO. */
    static Map<String, Guid> read(MemorySegment info) {
        Map<String, Guid> out = new LinkedHashMap<>();
        if (info.byteSize() < _PROVIDER_ENUMERATION_INFO.TraceProviderInfoArray$offset()) {
            return out;
        }
        long count = Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, _PROVIDER_ENUMERATION_INFO.NumberOfProviders$offset()));
        long entry = _TRACE_PROVIDER_INFO.layout().byteSize();
        long first = _PROVIDER_ENUMERATION_INFO.TraceProviderInfoArray$offset();
        for (long i = 0; i < count && first + (i + 1) * entry <= info.byteSize(); i++) {
            long at = first + i * entry;
            Guid id = NativeGuids.read(info, at + _TRACE_PROVIDER_INFO.ProviderGuid$offset());
            long nameAt = Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, at + _TRACE_PROVIDER_INFO.ProviderNameOffset$offset()));
            if (nameAt == 0 || nameAt >= info.byteSize()) {
                continue; // no name: nothing to resolve by
            }
            String name = info.getString(nameAt, StandardCharsets.UTF_16LE);
            out.putIfAbsent(name, id);
        }
        return out;
    }
}
