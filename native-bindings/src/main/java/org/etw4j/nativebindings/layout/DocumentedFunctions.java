package org.etw4j.nativebindings.layout;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * tdh.dll functions that mingw-w64's tdh.h does not declare, bound by hand from Microsoft's documented
 * prototypes (Microsoft Learn, tdh.h reference: "TdhFormatProperty function", "TdhLoadManifest function",
 * "TdhUnloadManifest function", "TdhLoadManifestFromBinary function"). {@code TDHSTATUS} is {@code ULONG}:
 * a Win32 error code, {@code ERROR_SUCCESS} (0) on success.
 *
 * <p>Stateless and thread-safe. Like the generated bindings, symbols resolve lazily through the class
 * loader's libraries: load tdh first ({@code org.etw4j.nativebindings.windows.WindowsLibraries}); until then,
 * and on any OS but Windows, a call throws {@link UnsatisfiedLinkError} naming the function.
 * The module's ABI test checks each descriptor against the documented prototype (parameter count, each
 * parameter's and the return value's kind and size; WindowsAbiTest, sdk-documented.h).
 */
public final class DocumentedFunctions {

    /**
     * {@code TDHSTATUS TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
     * ULONG PointerSize, USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength,
     * USHORT UserDataLength, PBYTE UserData, PULONG BufferSize, PWCHAR Buffer, PUSHORT UserDataConsumed)}.
     */
    public static final FunctionDescriptor TDH_FORMAT_PROPERTY = FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_SHORT, ValueLayout.JAVA_SHORT, ValueLayout.JAVA_SHORT, ValueLayout.JAVA_SHORT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
    /** {@code TDHSTATUS TdhLoadManifest(PWSTR Manifest)}. */
    public static final FunctionDescriptor TDH_LOAD_MANIFEST =
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
    /** {@code TDHSTATUS TdhUnloadManifest(PWSTR Manifest)}. */
    public static final FunctionDescriptor TDH_UNLOAD_MANIFEST =
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
    /** {@code TDHSTATUS TdhLoadManifestFromBinary(PWSTR BinaryPath)} (Windows 8.1 and later). */
    public static final FunctionDescriptor TDH_LOAD_MANIFEST_FROM_BINARY =
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS);

    private static final LazyDowncall FORMAT_PROPERTY =
            new LazyDowncall("TdhFormatProperty", TDH_FORMAT_PROPERTY, "tdh.dll");
    private static final LazyDowncall LOAD_MANIFEST = new LazyDowncall("TdhLoadManifest", TDH_LOAD_MANIFEST, "tdh.dll");
    private static final LazyDowncall UNLOAD_MANIFEST =
            new LazyDowncall("TdhUnloadManifest", TDH_UNLOAD_MANIFEST, "tdh.dll");
    private static final LazyDowncall LOAD_MANIFEST_FROM_BINARY =
            new LazyDowncall("TdhLoadManifestFromBinary", TDH_LOAD_MANIFEST_FROM_BINARY, "tdh.dll");

    private DocumentedFunctions() {
    }

    /** Formats one property of an event; see the prototype on {@link #TDH_FORMAT_PROPERTY}. */
    public static int TdhFormatProperty(MemorySegment eventInfo, MemorySegment mapInfo, int pointerSize,
                                        short propertyInType, short propertyOutType, short propertyLength,
                                        short userDataLength, MemorySegment userData, MemorySegment bufferSize,
                                        MemorySegment buffer, MemorySegment userDataConsumed) {
        try {
            return (int) FORMAT_PROPERTY.handle().invokeExact(eventInfo, mapInfo, pointerSize, propertyInType,
                    propertyOutType, propertyLength, userDataLength, userData, bufferSize, buffer,
                    userDataConsumed);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Loads an instrumentation manifest (path as a NUL-terminated UTF-16 string) for TDH decoding. */
    public static int TdhLoadManifest(MemorySegment manifestPath) {
        try {
            return (int) LOAD_MANIFEST.handle().invokeExact(manifestPath);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Unloads a manifest loaded by {@link #TdhLoadManifest}. */
    public static int TdhUnloadManifest(MemorySegment manifestPath) {
        try {
            return (int) UNLOAD_MANIFEST.handle().invokeExact(manifestPath);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Loads the manifest resources of a binary (path as a NUL-terminated UTF-16 string). */
    public static int TdhLoadManifestFromBinary(MemorySegment binaryPath) {
        try {
            return (int) LOAD_MANIFEST_FROM_BINARY.handle().invokeExact(binaryPath);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        return LazyDowncall.rethrow(t);
    }
}
