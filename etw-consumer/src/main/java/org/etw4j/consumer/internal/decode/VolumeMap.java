package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.List;

/**
 * NT device paths to drive-letter paths, from what a trace itself recorded: {@code \Device\HarddiskVolume2\Windows\
 * System32\ntdll.dll} is {@code C:\Windows\System32\ntdll.dll} when the trace maps {@code \Device\HarddiskVolume2\}
 * to {@code C:\}.
 *
 * <p>Mutable, not thread-safe: one {@link TraceContext} fills it as the trace's events come. The rules are the ones
 * TraceEvent applies (microsoft/perfview f3ec1b38, KernelTraceEventParser.cs {@code KernelToUserDriveMapping}):
 * <ul>
 *   <li>Sources: the SysConfig {@code VolumeMapping} events KernelTraceControl writes when it merges a trace
 *       ({@code NtPath} to {@code DosPath}; WPT "Custom injection of system information",
 *       EVENT_TRACE_MERGE_EXTENDED_DATA_VOLUME_MAPPING) and the SysConfig {@code SystemPaths} event, whose Windows
 *       directory maps the prefix {@code \Windows\}.</li>
 *   <li>Lookup: the prefixes in the order they were recorded, the first one that starts the path wins, compared
 *       without regard to case; the rest of the path is kept as written.</li>
 * </ul>
 * Unlike TraceEvent, nothing is taken from the machine that reads the trace (TraceEvent asks the local
 * {@code QueryDosDevice} when a trace recorded no mapping): a path no recorded prefix covers stays as the trace
 * wrote it and {@link #toDos} says so with {@code null}. The logical-disk events (SystemConfig {@code LogDisk}) name
 * drive letters with disk and partition numbers but no device name, so they cannot map a volume device.
 */
public final class VolumeMap {

    /** One recorded prefix pair. */
    private record Entry(String ntPrefix, String dosPrefix) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /**
     * Records that NT paths starting with {@code ntPrefix} are {@code dosPrefix} plus the rest (a prefix recorded
     * before takes precedence). Blank NT prefixes are ignored.
     */
    public void add(String ntPrefix, String dosPrefix) {
        if (ntPrefix == null || ntPrefix.isEmpty()) {
            return;
        }
        entries.add(new Entry(ntPrefix, dosPrefix == null ? "" : dosPrefix));
    }

    /** Records the system's Windows directory ({@code C:\Windows\}) as the meaning of {@code \Windows\}. */
    public void addWindowsDirectory(String windowsDirectory) {
        if (windowsDirectory != null && !windowsDirectory.isEmpty()) {
            add("\\Windows\\", windowsDirectory.endsWith("\\") ? windowsDirectory : windowsDirectory + "\\");
        }
    }

    /** The recorded prefixes in order, as text (see {@link TraceContext#describe()}). */
    String describe() {
        return "volumes " + entries + "\n";
    }

    /** Whether the trace recorded no mapping so far. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Number of recorded prefixes. */
    public int size() {
        return entries.size();
    }

    /** Whether {@code path} is in NT form (starts with a backslash), the form the kernel writes. */
    public static boolean isNtPath(String path) {
        return path != null && path.startsWith("\\");
    }

    /**
     * The drive-letter form of {@code ntPath} by the first recorded prefix that starts it, or {@code null} when no
     * recorded prefix does (or {@code ntPath} is not in NT form).
     */
    public String toDos(String ntPath) {
        if (!isNtPath(ntPath)) {
            return null;
        }
        for (Entry e : entries) {
            String p = e.ntPrefix();
            if (ntPath.regionMatches(true, 0, p, 0, p.length())) {
                return e.dosPrefix() + ntPath.substring(p.length());
            }
        }
        return null;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("VolumeMap[");
        for (Entry e : entries) {
            sb.append(e.ntPrefix()).append(" -> ").append(e.dosPrefix()).append("; ");
        }
        return sb.append(']').toString();
    }
}
