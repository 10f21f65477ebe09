package org.etw4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The smallest ETW behind the stand-in library that a provider backend can run on: an {@code ETW_STANDIN_ENGINE}
 * table of FFM upcalls where EventRegister hands out one fixed handle ({@link #REG_HANDLE}) and keeps nothing,
 * EventUnregister and EventSetInformation succeed, and EventWriteTransfer records what it was given (for the
 * benchmark's set-up checks only). With {@link #install install(true)} the table carries
 * {@code ETW_STANDIN_FLAG_NOOP_WRITES}: the stand-in's EventWrite* return ERROR_SUCCESS in C without calling the
 * engine, so a write costs the call into the library and nothing else.
 *
 * <p>Thread-safe (counters are atomic, the last write is published through a volatile field); installed by one
 * thread at a time. The table and the upcall stubs live in the global arena: the stand-in keeps pointers to them
 * for the rest of the JVM's life, so they are never freed; there is nothing to close. No exception leaves an
 * upcall: each catches everything, counts it in {@link #upcallFailures()} and returns ERROR_INTERNAL_ERROR.
 */
final class NoopWriteEngine {
    /** The REGHANDLE EventRegister hands out (any non-zero value: the no-op writes never look at it). */
    static final long REG_HANDLE = 0x0000_E7A4_BE7C_0001L;
    static final int ETW_STANDIN_FLAG_NOOP_WRITES = 0x1;
    static final int ERROR_SUCCESS = 0;
    static final int ERROR_INVALID_PARAMETER = 87;
    static final int ERROR_INTERNAL_ERROR = 1359;
    /** Offset of {@code ULONG Flags} in ETW_STANDIN_ENGINE (after {@code ULONG Size}). */
    private static final long FLAGS_OFFSET = 4;

    /** What the engine's EventWriteTransfer was last called with (copied during the call). */
    record SeenWrite(long regHandle, byte[] descriptor, boolean hasActivityId, boolean hasRelatedActivityId,
                     int userDataCount, byte[] payload) {
    }

    private final StandInLibrary library;
    private final MemorySegment table;
    private final int dataDescriptorBytes;
    private final AtomicInteger registrations = new AtomicInteger();
    private final AtomicInteger unregistrations = new AtomicInteger();
    private final AtomicLong writesSeen = new AtomicLong();
    private final AtomicInteger upcallFailures = new AtomicInteger();
    private volatile SeenWrite lastWrite;

    /** Builds the table (not installed yet). */
    NoopWriteEngine(StandInLibrary library) {
        this.library = library;
        int size = library.engineSize();
        dataDescriptorBytes = library.sizeOf("EVENT_DATA_DESCRIPTOR");
        if (dataDescriptorBytes != 16 || library.sizeOf("EVENT_DESCRIPTOR") != 16) {
            throw new IllegalStateException("the stand-in " + library.path + " has unexpected Windows layouts:"
                    + " EVENT_DATA_DESCRIPTOR " + dataDescriptorBytes + " bytes, EVENT_DESCRIPTOR "
                    + library.sizeOf("EVENT_DESCRIPTOR") + " bytes (16 and 16 expected)");
        }
        if (library.engineOffsetOf("Flags") != FLAGS_OFFSET) {
            throw new IllegalStateException("the stand-in's engine table has Flags at " + library.engineOffsetOf("Flags"));
        }
        table = Arena.global().allocate(size, 8);
        table.set(ValueLayout.JAVA_INT, 0, size); // Size: every entry this library knows; unset ones stay NULL
        entry("EventRegister", "eventRegister", ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        entry("EventUnregister", "eventUnregister", ValueLayout.JAVA_LONG);
        entry("EventSetInformation", "eventSetInformation", ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.JAVA_INT);
        entry("EventWriteTransfer", "eventWriteTransfer", ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
    }

    /**
     * Installs the table in the stand-in (again, replacing the previous copy).
     *
     * @param noopWrites true: EventWrite* return ERROR_SUCCESS in C and never reach this engine
     */
    void install(boolean noopWrites) {
        table.set(ValueLayout.JAVA_INT, FLAGS_OFFSET, noopWrites ? ETW_STANDIN_FLAG_NOOP_WRITES : 0);
        library.install(table);
    }

    int registrations() {
        return registrations.get();
    }

    int unregistrations() {
        return unregistrations.get();
    }

    /** Calls that reached the engine's EventWriteTransfer (none while no-op writes are on). */
    long writesSeen() {
        return writesSeen.get();
    }

    SeenWrite lastWrite() {
        return lastWrite;
    }

    /** Throwables caught in the upcalls (should stay 0). */
    int upcallFailures() {
        return upcallFailures.get();
    }

    // ---------------------------------------------------------------- upcalls (never throw)

    private int eventRegister(MemorySegment providerId, MemorySegment enableCallback, MemorySegment context,
                              MemorySegment regHandle) {
        try {
            if (providerId.address() == 0 || regHandle.address() == 0) {
                return ERROR_INVALID_PARAMETER;
            }
            regHandle.reinterpret(Long.BYTES).set(ValueLayout.JAVA_LONG, 0, REG_HANDLE);
            registrations.incrementAndGet();
            return ERROR_SUCCESS;
        } catch (Throwable t) {
            upcallFailures.incrementAndGet();
            return ERROR_INTERNAL_ERROR;
        }
    }

    private int eventUnregister(long regHandle) {
        unregistrations.incrementAndGet();
        return ERROR_SUCCESS;
    }

    private int eventSetInformation(long regHandle, int informationClass, MemorySegment information, int length) {
        return ERROR_SUCCESS;
    }

    private int eventWriteTransfer(long regHandle, MemorySegment descriptor, MemorySegment activityId,
                                   MemorySegment relatedActivityId, int userDataCount, MemorySegment userData) {
        try {
            byte[] d = descriptor.reinterpret(16).toArray(ValueLayout.JAVA_BYTE);
            MemorySegment blocks = userData.reinterpret((long) userDataCount * dataDescriptorBytes);
            long total = 0;
            for (int i = 0; i < userDataCount; i++) {
                total += Integer.toUnsignedLong(blocks.get(ValueLayout.JAVA_INT, i * 16L + 8));
            }
            byte[] payload = new byte[Math.toIntExact(total)];
            int at = 0;
            for (int i = 0; i < userDataCount; i++) {
                long ptr = blocks.get(ValueLayout.JAVA_LONG, i * 16L);
                int size = blocks.get(ValueLayout.JAVA_INT, i * 16L + 8);
                MemorySegment.copy(MemorySegment.ofAddress(ptr).reinterpret(size), ValueLayout.JAVA_BYTE, 0, payload, at, size);
                at += size;
            }
            lastWrite = new SeenWrite(regHandle, d, activityId.address() != 0, relatedActivityId.address() != 0,
                    userDataCount, payload);
            writesSeen.incrementAndGet();
            return ERROR_SUCCESS;
        } catch (Throwable t) {
            upcallFailures.incrementAndGet();
            return ERROR_INTERNAL_ERROR;
        }
    }

    // ---------------------------------------------------------------- table plumbing

    private void entry(String function, String method, MemoryLayout... args) {
        FunctionDescriptor d = FunctionDescriptor.of(ValueLayout.JAVA_INT, args);
        try {
            MethodHandle target = MethodHandles.lookup().findVirtual(NoopWriteEngine.class, method, d.toMethodType()).bindTo(this);
            MemorySegment stub = Linker.nativeLinker().upcallStub(target, d, Arena.global());
            table.set(ValueLayout.ADDRESS, library.engineOffsetOf(function), stub);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no upcall method " + method, e);
        }
    }
}
