package org.etw4j.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.etw4j.format.SystemTraceHeaderLayout;
import org.etw4j.format.TraceHeaderTypes;

/**
 * Builds the kernel records a SystemTraceProvider session writes, byte for byte in the layouts a 64-bit Windows
 * writes them, so that readers decode the simulator's kernel events as they decode Windows' ones.
 *
 * <p>Stateless; static methods; each returns a new little-endian array (unaligned; the session pads it). Which
 * header each event carries is what traces recorded on Windows show (PerfView's sample traces
 * net.4.5.2.x64.etl and diaghub.diaghub.kernel.1.etl, read with etw-consumer's EtlFile): Process
 * rundown v4 and PerfInfo SampledProfile v2 and StackWalk v2 in a PERFINFO_TRACE_HEADER (0x11, no process or thread
 * id), Thread rundown v3, Image rundown v3 and PerfInfo CollectionStart/End v3 in a full SYSTEM_TRACE_HEADER (0x02).
 * The corpus holds no CSwitch; it is written in a PERFINFO_TRACE_HEADER like the other high-rate PerfInfo-style
 * events, an assumption a Windows trace has to confirm (RealEtwTest). Payload layouts: MS Learn's MOF classes
 * Process_V4_TypeGroup1, Thread_V3_TypeGroup1, Image_Load (v3), SampledProfile, StackWalk_Event, CSwitch,
 * SampledProfileInterval_V3; the same as etw-consumer's KernelSchemas and KernelTraceEventTableTest's TraceEvent facts.
 */
final class KernelRecords {
    private KernelRecords() {
    }

    static final int GROUP_PROCESS = 0x03;
    static final int GROUP_THREAD = 0x05;
    static final int GROUP_PERFINFO = 0x0F;
    static final int GROUP_IMAGE = 0x14;
    static final int GROUP_STACKWALK = 0x18;

    static final int DC_START = 3;
    static final int DC_END = 4;
    static final int SAMPLE = 46;
    static final int STACK = 32;
    static final int CSWITCH = 36;
    static final int COLLECTION_START = 73;
    static final int COLLECTION_END = 74;

    /** A record of {@code headerSize + payload} bytes with the fields both header kinds share written. */
    private static ByteBuffer record(int headerType, int headerSize, int group, int type, int version, int payload) {
        int size = headerSize + payload;
        if (size > 0xFFFF) {
            throw new IllegalArgumentException("a kernel record holds at most 65535 bytes, got " + size);
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(SystemTraceHeaderLayout.VERSION, (short) version);
        b.put(SystemTraceHeaderLayout.HEADER_TYPE, (byte) headerType);
        b.put(SystemTraceHeaderLayout.MARKER_FLAGS, (byte) TraceHeaderTypes.MARKER_STRUCTURED);
        b.putShort(SystemTraceHeaderLayout.SIZE, (short) size);
        b.putShort(SystemTraceHeaderLayout.HOOK_ID, (short) SystemTraceHeaderLayout.hookId(group, type));
        return b;
    }

    private static ByteBuffer perfInfo(int group, int type, int version, long time, int payload) {
        ByteBuffer b = record(TraceHeaderTypes.PERFINFO64, SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE, group, type,
                version, payload);
        b.putLong(SystemTraceHeaderLayout.PERFINFO_TIMESTAMP, time);
        return b.position(SystemTraceHeaderLayout.PERFINFO_HEADER_SIZE);
    }

    private static ByteBuffer system(int group, int type, int version, long time, int pid, int tid, int payload) {
        ByteBuffer b = record(TraceHeaderTypes.SYSTEM64, SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE, group, type,
                version, payload);
        b.putInt(SystemTraceHeaderLayout.THREAD_ID, tid);
        b.putInt(SystemTraceHeaderLayout.PROCESS_ID, pid);
        b.putLong(SystemTraceHeaderLayout.SYSTEM_TIME, time);
        return b.position(SystemTraceHeaderLayout.SYSTEM_HEADER_SIZE);
    }

    private static byte[] utf16z(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_16LE);
    }

    /**
     * Process_V4_TypeGroup1: UniqueProcessKey, ProcessId, ParentId, SessionId, ExitStatus, DirectoryTableBase,
     * Flags, UserSID (a SID after a TOKEN_USER of two pointers: here the LocalSystem SID S-1-5-18), ImageFileName
     * (ANSI), CommandLine, PackageFullName, ApplicationId (UTF-16).
     */
    static byte[] process(int type, long time, long key, int pid, int parentPid, String imageFileName, String commandLine) {
        byte[] image = (imageFileName + "\0").getBytes(StandardCharsets.US_ASCII);
        byte[] cmd = utf16z(commandLine);
        byte[] empty = utf16z("");
        // TOKEN_USER {PSID Sid; DWORD Attributes} padded to 16 bytes on x64 (Sid a kernel address: a 0 there would
        // mean "no SID" to readers, TraceEvent's and ours), then the SID: revision 1, 1 sub-authority, authority 5
        // (NT), sub-authority 18 (LocalSystem)
        byte[] sid = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN).putLong(0xFFFF_C000_0000_1010L).putLong(0L)
                .put(new byte[] {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0}).array();
        int payload = 8 + 4 * 4 + 8 + 4 + sid.length + image.length + cmd.length + 2 * empty.length;
        ByteBuffer b = perfInfo(GROUP_PROCESS, type, 4, time, payload);
        b.putLong(key).putInt(pid).putInt(parentPid).putInt(1).putInt(type == DC_END ? 0 : 259)
                .putLong(0L).putInt(0).put(sid).put(image).put(cmd).put(empty).put(empty);
        return b.array();
    }

    /**
     * Thread_V3_TypeGroup1: ProcessId, TThreadId, StackBase, StackLimit, UserStackBase, UserStackLimit, Affinity,
     * Win32StartAddr, TebBase, SubProcessTag, BasePriority, PagePriority, IoPriority, ThreadFlags, then the
     * thread name Windows 10 appends.
     */
    static byte[] thread(int type, long time, int pid, int tid, long startAddress, String name) {
        byte[] n = utf16z(name);
        ByteBuffer b = system(GROUP_THREAD, type, 3, time, pid, tid, 8 + 7 * 8 + 4 + 4 + n.length);
        long stack = 0xFFFF_8000_0000_0000L | ((long) tid << 16);
        b.putInt(pid).putInt(tid).putLong(stack).putLong(stack - 0x6000).putLong(0L).putLong(0L).putLong(0xFFL)
                .putLong(startAddress).putLong(0L).putInt(0).put((byte) 8).put((byte) 5).put((byte) 2).put((byte) 0)
                .put(n);
        return b.array();
    }

    /**
     * Image_Load v3: ImageBase, ImageSize, ProcessId, ImageChecksum, TimeDateStamp, SignatureLevel,
     * SignatureType, Reserved0, DefaultBase, Reserved1-4, FileName.
     */
    static byte[] image(int type, long time, int pid, long base, long size, String fileName) {
        byte[] n = utf16z(fileName);
        ByteBuffer b = system(GROUP_IMAGE, type, 3, time, pid, 0, 8 + 8 + 4 + 4 + 4 + 4 + 8 + 16 + n.length);
        b.putLong(base).putLong(size).putInt(pid).putInt(0).putInt(0).put((byte) 0).put((byte) 0).putShort((short) 0)
                .putLong(base).putInt(0).putInt(0).putInt(0).putInt(0).put(n);
        return b.array();
    }

    /** SampledProfile: InstructionPointer, ThreadId, Count, Reserved. */
    static byte[] sample(long time, int tid, long instructionPointer) {
        ByteBuffer b = perfInfo(GROUP_PERFINFO, SAMPLE, 2, time, 8 + 4 + 2 + 2);
        b.putLong(instructionPointer).putInt(tid).putShort((short) 1).putShort((short) 0);
        return b.array();
    }

    /** StackWalk_Event: EventTimeStamp, StackProcess, StackThread, the frames leaf first. */
    static byte[] stack(long time, long eventTime, int pid, int tid, long[] frames) {
        ByteBuffer b = perfInfo(GROUP_STACKWALK, STACK, 2, time, 8 + 4 + 4 + 8 * frames.length);
        b.putLong(eventTime).putInt(pid).putInt(tid);
        for (long f : frames) {
            b.putLong(f);
        }
        return b.array();
    }

    /**
     * CSwitch: NewThreadId, OldThreadId, NewThreadPriority, OldThreadPriority, PreviousCState, SpareByte,
     * OldThreadWaitReason, OldThreadWaitMode, OldThreadState, OldThreadWaitIdealProcessor, NewThreadWaitTime,
     * Reserved.
     */
    static byte[] cswitch(long time, int newTid, int oldTid, int oldThreadState, int waitReason) {
        ByteBuffer b = perfInfo(GROUP_THREAD, CSWITCH, 2, time, 4 + 4 + 8 + 4 + 4);
        b.putInt(newTid).putInt(oldTid).put((byte) 8).put((byte) 8).put((byte) 0).put((byte) 0)
                .put((byte) waitReason).put((byte) 1).put((byte) oldThreadState).put((byte) 0).putInt(0).putInt(0);
        return b.array();
    }

    /** SampledProfileInterval_V3: SampleSource (0, the timer), NewInterval, OldInterval, SourceName. */
    static byte[] collection(int type, long time, int interval100ns) {
        byte[] n = utf16z("Timer");
        ByteBuffer b = system(GROUP_PERFINFO, type, 3, time, 0, 0, 12 + n.length);
        b.putInt(0).putInt(interval100ns).putInt(interval100ns).put(n);
        return b.array();
    }
}
