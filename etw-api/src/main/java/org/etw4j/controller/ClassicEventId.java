package org.etw4j.controller;

import java.util.Objects;
import org.etw4j.Guid;

/**
 * One kernel event to collect a call stack for: {@code CLASSIC_EVENT_ID} (evntrace.h: the event class GUID and
 * the event type, i.e. the opcode), as {@code TraceSetInformation(TraceStackTracingInfo)} takes a list of them
 * (MS Learn, TraceSetInformation function: "enables stack tracing of the specified kernel events").
 *
 * <p>Immutable record; thread-safe. The constants name the kernel events a profiler usually wants stacks for;
 * their class GUIDs and types are those of the kernel MOF classes (MS Learn "PerfInfo", "Thread", "Process",
 * "Image", "DiskIo", "FileIo" classes; the same as etw-consumer's kernel schemas decode).
 *
 * @param eventGuid the kernel event class (e.g. PerfInfo's)
 * @param type      the event type (opcode), 0-255
 */
public record ClassicEventId(Guid eventGuid, int type) {

    static final Guid PERF_INFO = Guid.parse("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc");
    static final Guid THREAD = Guid.parse("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c");
    static final Guid PROCESS = Guid.parse("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
    static final Guid IMAGE = Guid.parse("2cb15d1d-5fc1-11d2-abe1-00a0c911f518");
    static final Guid DISK_IO = Guid.parse("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c");
    static final Guid FILE_IO = Guid.parse("90cbdc39-4a3e-11d1-84f4-0000f80464e3");

    /** PerfInfo/SampledProfile (46): a CPU sample. */
    public static final ClassicEventId SAMPLED_PROFILE = new ClassicEventId(PERF_INFO, 46);
    /** Thread/CSwitch (36): a context switch (the stack of the thread switched in). */
    public static final ClassicEventId CSWITCH = new ClassicEventId(THREAD, 36);
    /** Thread/ReadyThread (50). */
    public static final ClassicEventId READY_THREAD = new ClassicEventId(THREAD, 50);
    /** Thread/Start (1). */
    public static final ClassicEventId THREAD_START = new ClassicEventId(THREAD, 1);
    /** Process/Start (1). */
    public static final ClassicEventId PROCESS_START = new ClassicEventId(PROCESS, 1);
    /** Image/Load (10). */
    public static final ClassicEventId IMAGE_LOAD = new ClassicEventId(IMAGE, 10);
    /** DiskIo/Read (10). */
    public static final ClassicEventId DISK_READ = new ClassicEventId(DISK_IO, 10);
    /** DiskIo/Write (11). */
    public static final ClassicEventId DISK_WRITE = new ClassicEventId(DISK_IO, 11);
    /** FileIo/Create (64). */
    public static final ClassicEventId FILE_CREATE = new ClassicEventId(FILE_IO, 64);
    /** FileIo/Read (67). */
    public static final ClassicEventId FILE_READ = new ClassicEventId(FILE_IO, 67);
    /** FileIo/Write (68). */
    public static final ClassicEventId FILE_WRITE = new ClassicEventId(FILE_IO, 68);

    public ClassicEventId {
        Objects.requireNonNull(eventGuid, "eventGuid");
        if (type < 0 || type > 0xFF) {
            throw new IllegalArgumentException("ClassicEventId.type is a UCHAR (0-255), got " + type);
        }
    }
}
