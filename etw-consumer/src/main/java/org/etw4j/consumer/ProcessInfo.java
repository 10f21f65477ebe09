package org.etw4j.consumer;

import org.etw4j.consumer.internal.decode.VolumeMap;

/**
 * One process as a trace's kernel process events describe it (Process Start, the rundown's DCStart/DCStop, Stop),
 * completed with the path of its executable from the image events. Immutable value; thread-safe.
 *
 * @param processId     the process id
 * @param parentId      the parent's process id ({@code -1} when no process event gave it)
 * @param name          the name TraceEvent prints as {@code PName}: the image file name without directory and
 *                      extension ({@code PerfView} for {@code PerfView.exe}); {@code ""} when no process event named
 *                      it
 * @param imageFileName the image file name as the process event wrote it ({@code smss.exe}; older kernels wrote a
 *                      path), or {@code ""}
 * @param imagePath     the executable's path, in drive-letter form when the trace's volume mapping covers it (see
 *                      {@link VolumeMap}), else as the trace wrote it; {@code null} when no image event named it
 * @param imageNtPath   the executable's path as the trace wrote it (NT form), or {@code null}
 * @param commandLine   the command line the process event carries, or {@code ""}
 * @param sessionId     the Terminal Services session the process runs in: the process events' SessionID
 *                      (Process_V2/V3/V4_TypeGroup1, MS Learn "Process_TypeGroup1 class"), {@code -1} when the
 *                      kernel wrote 0xFFFFFFFF (no session: Idle, System, smss.exe before it creates one; TraceEvent
 *                      prints it as -1) or no process event gave it
 */
public record ProcessInfo(int processId, int parentId, String name, String imageFileName, String imagePath,
                          String imageNtPath, String commandLine, int sessionId) {

    /** A process whose session is unknown ({@code sessionId} -1); the form before sessions were read. */
    public ProcessInfo(int processId, int parentId, String name, String imageFileName, String imagePath,
                       String imageNtPath, String commandLine) {
        this(processId, parentId, name, imageFileName, imagePath, imageNtPath, commandLine, -1);
    }

    /**
     * The process name TraceEvent derives from an image file name or path: the part after the last backslash,
     * without the part from the last dot on ({@code \Device\...\csrss.exe} is {@code csrss}; a name without a dot
     * stays whole). TraceEvent ETWTraceEventSource's process table, microsoft/perfview f3ec1b38.
     */
    public static String nameOf(String imageFileName) {
        if (imageFileName == null) {
            return "";
        }
        int start = imageFileName.lastIndexOf('\\') + 1;
        int end = imageFileName.lastIndexOf('.');
        if (end <= start) {
            end = imageFileName.length();
        }
        return imageFileName.substring(start, end);
    }
}
