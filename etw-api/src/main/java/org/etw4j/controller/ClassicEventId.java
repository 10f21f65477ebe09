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
 * "Image", "DiskIo", "FileIo" classes), from the one table {@link KernelEventGroup}.
 *
 * @param eventGuid the kernel event class (e.g. PerfInfo's)
 * @param type      the event type (opcode), 0-255
 */
public record ClassicEventId(Guid eventGuid, int type) {

    /** PerfInfo/SampledProfile (46): a CPU sample. */
    public static final ClassicEventId SAMPLED_PROFILE = new ClassicEventId(KernelEventGroup.PERF_INFO.guid(), 46);
    /** Thread/CSwitch (36): a context switch (the stack of the thread switched in). */
    public static final ClassicEventId CSWITCH = new ClassicEventId(KernelEventGroup.THREAD.guid(), 36);
    /** Thread/ReadyThread (50). */
    public static final ClassicEventId READY_THREAD = new ClassicEventId(KernelEventGroup.THREAD.guid(), 50);
    /** Thread/Start (1). */
    public static final ClassicEventId THREAD_START = new ClassicEventId(KernelEventGroup.THREAD.guid(), 1);
    /** Process/Start (1). */
    public static final ClassicEventId PROCESS_START = new ClassicEventId(KernelEventGroup.PROCESS.guid(), 1);
    /** Image/Load (10). */
    public static final ClassicEventId IMAGE_LOAD = new ClassicEventId(KernelEventGroup.IMAGE.guid(), 10);
    /** DiskIo/Read (10). */
    public static final ClassicEventId DISK_READ = new ClassicEventId(KernelEventGroup.DISK_IO.guid(), 10);
    /** DiskIo/Write (11). */
    public static final ClassicEventId DISK_WRITE = new ClassicEventId(KernelEventGroup.DISK_IO.guid(), 11);
    /** FileIo/Create (64). */
    public static final ClassicEventId FILE_CREATE = new ClassicEventId(KernelEventGroup.FILE_IO.guid(), 64);
    /** FileIo/Read (67). */
    public static final ClassicEventId FILE_READ = new ClassicEventId(KernelEventGroup.FILE_IO.guid(), 67);
    /** FileIo/Write (68). */
    public static final ClassicEventId FILE_WRITE = new ClassicEventId(KernelEventGroup.FILE_IO.guid(), 68);

    public ClassicEventId {
        Objects.requireNonNull(eventGuid, "eventGuid");
        if (type < 0 || type > 0xFF) {
            throw new IllegalArgumentException("ClassicEventId.type is a UCHAR (0-255), got " + type);
        }
    }
}
