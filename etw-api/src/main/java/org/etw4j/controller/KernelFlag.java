package org.etw4j.controller;

import java.util.Collection;

/**
 * The SystemTraceProvider's kernel event groups, as {@code EVENT_TRACE_PROPERTIES.EnableFlags} selects them
 * ({@code EVENT_TRACE_FLAG_*}, evntrace.h; MS Learn, "EVENT_TRACE_PROPERTIES structure", EnableFlags). The values
 * are the header's; {@code ApiConstantsMatchHeadersTest} compares each with what jextract took from the mingw-w64
 * headers.
 *
 * <p>Enum constants: immutable, thread-safe. Flags outside this set (EXTENSION, FORWARD_WMI, ENABLE_RESERVE) are
 * not event groups but markers of an extended flag format, so they are not offered.
 */
public enum KernelFlag {
    /** Process start and end, and the process rundown (DCStart/DCEnd). */
    PROCESS(0x0000_0001),
    /** Thread start and end, and the thread rundown. */
    THREAD(0x0000_0002),
    /** Image (DLL, driver, executable) loads and unloads, and the image rundown. */
    IMAGE_LOAD(0x0000_0004),
    /** Process counters (PerfCtr). */
    PROCESS_COUNTERS(0x0000_0008),
    /** Context switches (Thread/CSwitch). */
    CSWITCH(0x0000_0010),
    /** Deferred procedure calls. */
    DPC(0x0000_0020),
    /** Interrupt service routines. */
    INTERRUPT(0x0000_0040),
    /** System calls. */
    SYSTEMCALL(0x0000_0080),
    /** Disk I/O completion. */
    DISK_IO(0x0000_0100),
    /** File names of disk I/O (FileIo/Name). */
    DISK_FILE_IO(0x0000_0200),
    /** Disk I/O initiation. */
    DISK_IO_INIT(0x0000_0400),
    /** The dispatcher (ReadyThread). */
    DISPATCHER(0x0000_0800),
    /** All page faults. */
    MEMORY_PAGE_FAULTS(0x0000_1000),
    /** Hard page faults. */
    MEMORY_HARD_FAULTS(0x0000_2000),
    /** Virtual memory allocation and release. */
    VIRTUAL_ALLOC(0x0000_4000),
    /** Mapped views of files. */
    VAMAP(0x0000_8000),
    /** TCP/IP and UDP/IP. */
    NETWORK_TCPIP(0x0001_0000),
    /** Registry calls. */
    REGISTRY(0x0002_0000),
    /** DbgPrint output. */
    DBGPRINT(0x0004_0000),
    /** Job objects. */
    JOB(0x0008_0000),
    /** Advanced local procedure calls. */
    ALPC(0x0010_0000),
    /** Split I/O. */
    SPLIT_IO(0x0020_0000),
    /** Debugger events. */
    DEBUG_EVENTS(0x0040_0000),
    /** Driver (IRP) events. */
    DRIVER(0x0080_0000),
    /** CPU sampling (PerfInfo/SampledProfile), at the session's sampling interval. */
    PROFILE(0x0100_0000),
    /** File I/O completion. */
    FILE_IO(0x0200_0000),
    /** File I/O initiation. */
    FILE_IO_INIT(0x0400_0000),
    /** Turns off the system configuration rundown (SystemConfig) at the end of the session. */
    NO_SYSCONFIG(0x1000_0000);

    private final int bit;

    KernelFlag(int bit) {
        this.bit = bit;
    }

    /** The {@code EVENT_TRACE_FLAG_*} value. */
    public int bit() {
        return bit;
    }

    /** OR of the flags of {@code flags} (the EnableFlags value). */
    public static int mask(Collection<KernelFlag> flags) {
        int m = 0;
        for (KernelFlag f : flags) {
            m |= f.bit;
        }
        return m;
    }
}
