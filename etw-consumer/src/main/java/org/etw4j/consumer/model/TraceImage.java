package org.etw4j.consumer.model;

/**
 * One image (executable or DLL, or a driver in the kernel's address space, process 0) mapped into a process, as the
 * trace's kernel Image events describe it: Load (10), Unload (2), rundown DCStart (3) / DCStop (4); layout Image_Load
 * (MS Learn, "Image_Load class": ImageBase, ImageSize, ProcessId, ..., FileName). Immutable value; thread-safe.
 *
 * @param processId the process it is mapped into ({@code 0} for kernel images)
 * @param base      the load address
 * @param size      the size of the mapping in bytes
 * @param path      the file path, in drive-letter form when the trace's volume mapping covers it, else as written
 * @param ntPath    the file path as the trace wrote it
 * @param load      FILETIME of its Load event, {@link Long#MIN_VALUE} when it was mapped before the trace (rundown)
 * @param unload    FILETIME of its Unload event, {@link Long#MAX_VALUE} when the trace saw none
 */
public record TraceImage(int processId, long base, long size, String path, String ntPath, long load, long unload) {

    /** Whether {@code address} lies in {@code [base, base + size)} (unsigned). */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, base) >= 0 && Long.compareUnsigned(address - base, size) < 0;
    }

    /** Whether the image was mapped at {@code time} (FILETIME). */
    public boolean mappedAt(long time) {
        return load <= time && time < unload;
    }

    /** The file name without directory ({@code ntoskrnl.exe}). */
    public String fileName() {
        int slash = Math.max(ntPath.lastIndexOf('\\'), ntPath.lastIndexOf('/'));
        return ntPath.substring(slash + 1);
    }

    /** The module name as PerfView shows it in stacks: the file name without extension ({@code ntoskrnl}). */
    public String moduleName() {
        return org.etw4j.consumer.ProcessInfo.nameOf(fileName());
    }
}
