package org.etw4j.jna.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The provider functions of advapi32 (evntprov.h), bound with JNA direct mapping: static native methods, no
 * proxy, no boxing, no argument arrays, so a call allocates nothing on the Java heap.
 *
 * <p>Stateless after {@link #bind()}; thread-safe (ETW's provider functions are). The library is the one seam
 * tests use: the system property {@value #LIBRARY_PROPERTY} names another library (a path or a name) with the
 * same exports, read once, at the first {@link #bind()}. Calling a method before {@code bind()} succeeded
 * throws {@link UnsatisfiedLinkError}.
 *
 * <p>How the library is found (issue 9, defect 3, checked against JNA's {@code NativeLibrary}): JNA opens it
 * itself ({@code NativeLibrary.getInstance}: the name mapped to advapi32.dll, looked for in
 * {@code jna.library.path}, else handed to {@code LoadLibraryEx}, whose search finds advapi32, a KnownDLL, in
 * System32), not with {@code System.loadLibrary}: {@code java.library.path} plays no part and no class loader
 * owns the library, so neither of the problems of the FFM backend's former {@code System.loadLibrary} applies.
 * (JNA's own jnidispatch is extracted per class loader by JNA.) An application that sets {@code jna.library.path}
 * to a directory holding another advapi32.dll would get that one.
 *
 * <p>Argument types follow the Windows x64 ABI (etw_standin_layout.h states it for the stand-in): ULONG and
 * enums are {@code int}; REGHANDLE, ULONGLONG and the PVOID context are {@code long}; pointers to GUIDs and
 * structures are {@link Pointer}s to native memory in Windows layout. Only 64-bit processes are supported (a
 * PVOID passed as {@code long} is wrong on 32-bit Windows, where also the calling convention differs).
 */
public final class Advapi32 {
    /** System property: the library to load instead of {@value #DEFAULT_LIBRARY}. */
    public static final String LIBRARY_PROPERTY = "etw4j.jna.library";
    /** The Windows library exporting the provider functions. */
    public static final String DEFAULT_LIBRARY = "advapi32";

    private static volatile String boundLibrary;

    private Advapi32() {
    }

    /**
     * Loads the library and binds the native methods, once per process.
     *
     * @return the library name or path that was bound
     * @throws UnsatisfiedLinkError if the library or one of the functions cannot be found
     */
    public static String bind() {
        String bound = boundLibrary;
        if (bound != null) {
            return bound;
        }
        synchronized (Advapi32.class) {
            if (boundLibrary == null) {
                String name = configuredLibrary();
                Native.register(Advapi32.class, NativeLibrary.getInstance(name));
                boundLibrary = name;
            }
            return boundLibrary;
        }
    }

    /** The library {@link #bind()} loads (or loaded): the system property, else {@value #DEFAULT_LIBRARY}. */
    public static String configuredLibrary() {
        String bound = boundLibrary;
        if (bound != null) {
            return bound;
        }
        String p = System.getProperty(LIBRARY_PROPERTY);
        return p == null || p.isBlank() ? DEFAULT_LIBRARY : p.trim();
    }

    /** Whether the bound (or configured) library is Windows' own advapi32 rather than a substitute. */
    public static boolean isSystemLibrary() {
        return DEFAULT_LIBRARY.equalsIgnoreCase(configuredLibrary());
    }

    /**
     * {@code ULONG EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext,
     * PREGHANDLE RegHandle)}.
     */
    public static native int EventRegister(Pointer providerId, NativeEnableCallback enableCallback, long callbackContext,
                                           Pointer regHandle);

    /** {@code ULONG EventUnregister(REGHANDLE RegHandle)}. */
    public static native int EventUnregister(long regHandle);

    /**
     * {@code ULONG EventWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
     * LPCGUID RelatedActivityId, ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData)}.
     */
    public static native int EventWriteTransfer(long regHandle, Pointer eventDescriptor, Pointer activityId,
                                                Pointer relatedActivityId, int userDataCount, Pointer userData);

    /** {@code ULONG EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId)}. */
    public static native int EventActivityIdControl(int controlCode, Pointer activityId);

    /**
     * {@code ULONG EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass, PVOID EventInformation,
     * ULONG InformationLength)}.
     */
    public static native int EventSetInformation(long regHandle, int informationClass, Pointer eventInformation,
                                                 int informationLength);
}
