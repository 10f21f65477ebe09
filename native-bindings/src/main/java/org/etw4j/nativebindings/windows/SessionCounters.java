package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.etw4j.nativebindings.generated.EtwNative;

/**
 * Event counts of a session that Windows does not report (accepted, delivered, pending), asked of the library
 * with {@code TraceQueryInformation} and an information class of etw4j's own, {@link #INFO_CLASS}.
 *
 * <p>Immutable record; thread-safe. This is an extension, not a Windows API: {@code TRACE_QUERY_INFO_CLASS} has
 * no such class, so the backend asks only a substitute library (the test stand-in, whose simulated ETW knows
 * these counts) and never the system's advapi32; on Windows the counts are -1, as
 * {@link org.etw4j.controller.SessionStatistics} documents. Layout of the answer: seven little-endian u64,
 * in the order of the components.
 *
 * @param eventsAccepted      events that passed the session's filters
 * @param eventsDelivered     events delivered to consumers or the file
 * @param eventsLost          events lost
 * @param eventsPending       events still buffered
 * @param buffersWritten      buffers delivered or written
 * @param buffersLost         buffers discarded
 * @param realTimeBuffersLost real-time buffers discarded without a consumer
 */
record SessionCounters(long eventsAccepted, long eventsDelivered, long eventsLost, long eventsPending, long buffersWritten,
                       long buffersLost, long realTimeBuffersLost) {
    /** The information class ('E4' 0x0001): outside the range Windows uses. */
    static final int INFO_CLASS = 0x4534_0001;
    /** Bytes of the answer. */
    static final int BYTES = 7 * 8;

    /** Writes these counters in the answer layout (for engines that implement the extension). */
    void writeTo(MemorySegment out) {
        long[] v = {eventsAccepted, eventsDelivered, eventsLost, eventsPending, buffersWritten, buffersLost, realTimeBuffersLost};
        for (int i = 0; i < v.length; i++) {
            out.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, v[i]);
        }
    }

    /** The counters of session {@code handle}, or null when the library does not answer the extension. */
    static SessionCounters query(long handle) {
        if (WindowsLibraries.loadedSubstitute() == null) {
            return null; // the system's ETW: never sent a class it does not define
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(BYTES, 8);
            MemorySegment returned = call.allocate(ValueLayout.JAVA_INT);
            int status = EtwNative.TraceQueryInformation(handle, INFO_CLASS, out, BYTES, returned);
            if (status != Win32Errors.ERROR_SUCCESS || returned.get(ValueLayout.JAVA_INT, 0) != BYTES) {
                return null;
            }
            long[] v = new long[7];
            for (int i = 0; i < v.length; i++) {
                v[i] = out.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i);
            }
            return new SessionCounters(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
        }
    }
}
