package org.etw4j.nativebindings.windows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.etw4j.nativebindings.generated.EtwNative;

/**
 * TDH lookups for one consumer's {@link EventRecordView}: {@code TdhGetEventInformation} and
 * {@code TdhGetEventMapInformation} into buffers reused from one call to the next, and the event kinds TDH has
 * no schema for ({@code ERROR_NOT_FOUND}), remembered by (provider, id, version, opcode) so that TDH is not asked
 * about them again.
 *
 * <p>Not thread-safe: confined to the thread that runs the consumer's callbacks, like its view. The buffers come
 * from an automatic arena (the garbage collector frees them with this object; nothing to close); a buffer grows
 * when TDH asks for more and is reused afterwards, so a warm lookup allocates nothing. A result is valid until the
 * next lookup of the same kind (event information and map information have separate buffers).
 *
 * <p>Not remembered: events that carry their own TraceLogging schema (TDH reads it from the record, so the same
 * descriptor can mean different schemas), and failures other than ERROR_NOT_FOUND (they are thrown each time).
 */
final class TdhLookups {
    private static final long INITIAL_BYTES = 4096;
    /** TDH asked for more again and again: give up (it means the schema changed under us). */
    private static final int ATTEMPTS = 3;
    private static final ValueLayout.OfChar UTF16LE_UNIT = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment sizeCell = arena.allocate(ValueLayout.JAVA_INT);
    private final EventKeySet notFound = new EventKeySet();
    private MemorySegment infoBuffer = MemorySegment.NULL;
    private MemorySegment mapBuffer = MemorySegment.NULL;
    private MemorySegment nameBuffer = MemorySegment.NULL;
    private long eventInformationCalls;

    /**
     * The TRACE_EVENT_INFO for the record {@code view} is attached to, or null when TDH has none.
     *
     * @throws org.etw4j.EtwException naming TdhGetEventInformation for other failures
     */
    MemorySegment eventInformation(EventRecordView view, boolean selfDescribed) {
        long msb = view.providerIdMsb();
        long lsb = view.providerIdLsb();
        int key = EventKeySet.key(view.id(), view.version(), view.opcode());
        if (!selfDescribed && notFound.contains(msb, lsb, key)) {
            return null;
        }
        MemorySegment record = view.eventRecord();
        if (infoBuffer.byteSize() == 0) {
            infoBuffer = arena.allocate(INITIAL_BYTES, 8);
        }
        int status = Win32Errors.ERROR_INSUFFICIENT_BUFFER;
        for (int attempt = 0; attempt < ATTEMPTS && status == Win32Errors.ERROR_INSUFFICIENT_BUFFER; attempt++) {
            sizeCell.set(ValueLayout.JAVA_INT, 0, (int) infoBuffer.byteSize());
            eventInformationCalls++;
            status = EtwNative.TdhGetEventInformation(record, 0, MemorySegment.NULL, infoBuffer, sizeCell);
            if (status == Win32Errors.ERROR_INSUFFICIENT_BUFFER) {
                infoBuffer = larger(infoBuffer);
            }
        }
        if (status == Win32Errors.ERROR_SUCCESS) {
            return used(infoBuffer);
        }
        if (status == Win32Errors.ERROR_NOT_FOUND) {
            if (!selfDescribed) {
                notFound.add(msb, lsb, key);
            }
            return null;
        }
        throw Win32Errors.failure("TdhGetEventInformation", status, describe(view));
    }

    /**
     * The EVENT_MAP_INFO named {@code mapName} for the record {@code view} is attached to, or null when TDH has
     * none.
     *
     * @throws org.etw4j.EtwException naming TdhGetEventMapInformation for other failures
     */
    MemorySegment eventMapInformation(EventRecordView view, String mapName) {
        MemorySegment record = view.eventRecord();
        MemorySegment name = wideString(mapName);
        if (mapBuffer.byteSize() == 0) {
            mapBuffer = arena.allocate(INITIAL_BYTES, 8);
        }
        int status = Win32Errors.ERROR_INSUFFICIENT_BUFFER;
        for (int attempt = 0; attempt < ATTEMPTS && status == Win32Errors.ERROR_INSUFFICIENT_BUFFER; attempt++) {
            sizeCell.set(ValueLayout.JAVA_INT, 0, (int) mapBuffer.byteSize());
            status = EtwNative.TdhGetEventMapInformation(record, name, mapBuffer, sizeCell);
            if (status == Win32Errors.ERROR_INSUFFICIENT_BUFFER) {
                mapBuffer = larger(mapBuffer);
            }
        }
        if (status == Win32Errors.ERROR_SUCCESS) {
            return used(mapBuffer);
        }
        if (status == Win32Errors.ERROR_NOT_FOUND) {
            return null;
        }
        throw Win32Errors.failure("TdhGetEventMapInformation", status, "map '" + mapName + "' of " + describe(view));
    }

    /** TdhGetEventInformation calls made so far (tests count them). */
    long eventInformationCalls() {
        return eventInformationCalls;
    }

    /** Event kinds remembered as unknown to TDH. */
    int notFoundCount() {
        return notFound.size();
    }

    /**
     * The part of {@code buffer} TDH filled: the size it reported when that fits (TDH writes the size it used),
     * else the whole buffer (its offsets are relative to the start either way).
     */
    private MemorySegment used(MemorySegment buffer) {
        long reported = Integer.toUnsignedLong(sizeCell.get(ValueLayout.JAVA_INT, 0));
        return reported > 0 && reported < buffer.byteSize() ? buffer.asSlice(0, reported) : buffer;
    }

    /** A buffer of at least the size TDH asked for (doubling, so that repeated growth stays rare). */
    private MemorySegment larger(MemorySegment old) {
        long needed = Integer.toUnsignedLong(sizeCell.get(ValueLayout.JAVA_INT, 0));
        long bytes = Math.max(needed, old.byteSize() * 2);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalStateException("TDH asked for a " + needed + "-byte buffer");
        }
        return arena.allocate(bytes, 8);
    }

    /** {@code s} as a NUL-terminated UTF-16LE string in the reused name buffer. */
    private MemorySegment wideString(String s) {
        long bytes = 2L * (s.length() + 1);
        if (nameBuffer.byteSize() < bytes) {
            nameBuffer = arena.allocate(Math.max(bytes, 256), 2);
        }
        for (int i = 0; i < s.length(); i++) {
            nameBuffer.set(UTF16LE_UNIT, 2L * i, s.charAt(i));
        }
        nameBuffer.set(UTF16LE_UNIT, 2L * s.length(), (char) 0);
        return nameBuffer;
    }

    private static String describe(EventRecordView view) {
        return "event " + view.id() + " version " + view.version() + " opcode " + view.opcode() + " of provider "
                + view.providerId();
    }
}
