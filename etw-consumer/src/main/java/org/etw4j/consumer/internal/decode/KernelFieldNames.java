package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;

/**
 * Names the kernel's flag and enum fields that need more than a map lookup, as TraceEvent's kernel parsers show
 * them: the I/O priority packed into a disk I/O's {@code IrpFlags}, and the create disposition packed into the
 * high byte of a file create's {@code CreateOptions}. Stateless; thread-safe.
 *
 * <p>What changes, per event:
 * <ul>
 *   <li>{@code Windows Kernel/DiskIO} Read, Write, FlushBuffers: {@code IrpFlags} keeps its raw value; its label
 *       names the bits without the priority bits 17-19 (TraceEvent {@code DiskIOTraceData.IrpFlags}:
 *       {@code & ~PriorityMask}, mask 0xe0000); a field {@code Priority} after it holds those bits
 *       ({@code (IrpFlags >> 17) & 7}) named as TraceEvent's {@code IOPriority}.</li>
 *   <li>{@code Windows Kernel/FileIO/Create} and {@code Microsoft-Windows-Kernel-File/Create}: {@code CreateOptions}
 *       becomes its low 24 bits, named with the {@code FILE_*} create options of ntdef.h; a field
 *       {@code CreateDisposition} after it holds the high byte, named as TraceEvent names it (TraceEvent
 *       {@code FileIOCreateTraceData}: {@code CreateOptions & 0xFFFFFF}, disposition = byte 15 of the options); the
 *       original 32-bit value is {@code CreateDisposition << 24 | CreateOptions}. {@code ShareAccess} and the file
 *       attributes ({@code FileAttributes}, Kernel-File's {@code CreateAttributes}) are named as flag sets.</li>
 * </ul>
 * Flag sets render as every flag set does ({@link EventField.LabelKind#FLAGS}, {@link ValueMap}).
 */
final class KernelFieldNames {

    /** Microsoft-Windows-Kernel-File's provider GUID. */
    static final Guid KERNEL_FILE = Guid.parse("edd08927-9cc4-4e65-b970-c2560fb5c289");

    private KernelFieldNames() {
    }

    /**
     * IRP flags (wdm.h {@code IRP_NOCACHE} ... {@code IRP_HOLD_DEVICE_QUEUE}) with TraceEvent's {@code IrpFlags}
     * names. Two values carry two names each in wdm.h and TraceEvent: 0x2 (PagingIo, MountCompletion) and 0x40
     * (InputOperation, SynchronousPagingIO). TraceEvent prints MountCompletion for 0x2 (baseline
     * net.4.5.2.x64, DiskIO/Read); .NET's enum formatting picks the name declared last for a shared value, which
     * for 0x40 is SynchronousPagingIO.
     */
    static final ValueMap IRP_FLAGS = bitMap("IrpFlags", 0, "None", 0x1, "Nocache", 0x2, "MountCompletion",
            0x4, "SynchronousApi", 0x8, "AssociatedIrp", 0x10, "BufferedIO", 0x20, "DeallocateBuffer",
            0x40, "SynchronousPagingIO", 0x80, "Create", 0x100, "Read", 0x200, "Write", 0x400, "Close",
            0x800, "DeferIOCompletion", 0x1000, "ObQueryName", 0x2000, "HoldDeviceQueue");

    /** Bits 17-19 of IrpFlags: the I/O priority (TraceEvent {@code IrpFlags.PriorityMask}). */
    static final long IRP_PRIORITY_MASK = 0xe0000L;

    /** TraceEvent's {@code IOPriority} names (IO_PRIORITY_HINT order: wdm.h IoPriorityVeryLow = 0 ... ). */
    static final ValueMap IO_PRIORITY = valueMap("IOPriority", 0, "Notset", 1, "Verylow", 2, "Low", 3, "Normal",
            4, "High", 5, "Critical", 6, "Reserved0", 7, "Reserved1");

    /** NtCreateFile's CreateOptions (ntdef.h / wdm.h {@code FILE_DIRECTORY_FILE} ... ). */
    static final ValueMap CREATE_OPTIONS = bitMap("CreateOptions", 0, "None", 0x1, "FILE_DIRECTORY_FILE",
            0x2, "FILE_WRITE_THROUGH", 0x4, "FILE_SEQUENTIAL_ONLY", 0x8, "FILE_NO_INTERMEDIATE_BUFFERING",
            0x10, "FILE_SYNCHRONOUS_IO_ALERT", 0x20, "FILE_SYNCHRONOUS_IO_NONALERT", 0x40, "FILE_NON_DIRECTORY_FILE",
            0x80, "FILE_CREATE_TREE_CONNECTION", 0x100, "FILE_COMPLETE_IF_OPLOCKED", 0x200, "FILE_NO_EA_KNOWLEDGE",
            0x400, "FILE_OPEN_REMOTE_INSTANCE", 0x800, "FILE_RANDOM_ACCESS", 0x1000, "FILE_DELETE_ON_CLOSE",
            0x2000, "FILE_OPEN_BY_FILE_ID", 0x4000, "FILE_OPEN_FOR_BACKUP_INTENT", 0x8000, "FILE_NO_COMPRESSION",
            0x10000, "FILE_OPEN_REQUIRING_OPLOCK", 0x20000, "FILE_DISALLOW_EXCLUSIVE",
            0x100000, "FILE_RESERVE_OPFILTER", 0x200000, "FILE_OPEN_REPARSE_POINT", 0x400000, "FILE_OPEN_NO_RECALL",
            0x800000, "FILE_OPEN_FOR_FREE_SPACE_QUERY");

    /**
     * The create disposition (ntdef.h FILE_SUPERSEDE 0 ... FILE_OVERWRITE_IF 5) with TraceEvent's
     * {@code CreateDisposition} names (CreateFile's words for the same semantics).
     */
    static final ValueMap CREATE_DISPOSITION = valueMap("CreateDisposition", 0, "SUPERSEDE", 1, "OPEN_EXISTING",
            2, "CREATE_NEW", 3, "OPEN_ALWAYS", 4, "TRUNCATE_EXISTING", 5, "CREATE_ALWAYS");

    /**
     * Share access (wdm.h FILE_SHARE_READ 1, FILE_SHARE_WRITE 2, FILE_SHARE_DELETE 4) with the names of .NET's
     * {@code FileShare}, which TraceEvent prints. .NET also has the composite {@code ReadWrite} (3); flag sets here
     * name single bits only, so 7 is {@code Read|Write|Delete} where TraceEvent prints {@code ReadWrite, Delete}.
     */
    static final ValueMap SHARE_ACCESS = bitMap("ShareAccess", 0, "None", 0x1, "Read", 0x2, "Write", 0x4, "Delete");

    /** File attributes (winnt.h FILE_ATTRIBUTE_*) with the names of .NET's {@code FileAttributes}; 0 has no name. */
    static final ValueMap FILE_ATTRIBUTES = bitMap("FileAttributes", 0x1, "ReadOnly", 0x2, "Hidden", 0x4, "System",
            0x10, "Directory", 0x20, "Archive", 0x40, "Device", 0x80, "Normal", 0x100, "Temporary",
            0x200, "SparseFile", 0x400, "ReparsePoint", 0x800, "Compressed", 0x1000, "Offline",
            0x2000, "NotContentIndexed", 0x4000, "Encrypted", 0x8000, "IntegrityStream", 0x20000, "NoScrubData");

    /** Whether events of this schema get names here (cheap, called per decoded event). */
    static boolean applies(EventSchema s) {
        Guid p = s.providerId();
        if (s.source() == SchemaSource.KERNEL_MOF) {
            return p.equals(KernelSchemas.DISK_IO) || (p.equals(KernelSchemas.FILE_IO) && s.opcode() == 64);
        }
        return p.equals(KERNEL_FILE) && "Create".equals(s.eventName());
    }

    /** {@code fields} with the names above (a new list when something changed, else {@code fields}). */
    static List<EventField> apply(EventSchema s, List<EventField> fields) {
        if (!applies(s)) {
            return fields;
        }
        List<EventField> out = new ArrayList<>(fields.size() + 1);
        boolean disk = s.providerId().equals(KernelSchemas.DISK_IO);
        for (EventField f : fields) {
            Long v = f.error() == null ? f.asLong() : null;
            if (v == null) {
                out.add(f);
                continue;
            }
            switch (f.name()) {
                case "IrpFlags" -> {
                    if (!disk) {
                        out.add(f);
                        break;
                    }
                    out.add(f.withLabel(IRP_FLAGS.label(v & ~IRP_PRIORITY_MASK), EventField.LabelKind.FLAGS));
                    int priority = (int) ((v & IRP_PRIORITY_MASK) >>> 17);
                    out.add(EventField.of("Priority", InType.UINT8, OutType.NULL, priority,
                            IO_PRIORITY.label(priority), EventField.LabelKind.NAME));
                }
                case "CreateOptions" -> {
                    long options = v & 0xFF_FFFFL;
                    int disposition = (int) ((v >>> 24) & 0xFF);
                    out.add(EventField.of(f.name(), f.inType(), f.outType(), f.value() instanceof Integer
                                    ? Integer.valueOf((int) options) : Long.valueOf(options),
                            CREATE_OPTIONS.label(options), EventField.LabelKind.FLAGS));
                    String name = CREATE_DISPOSITION.label(disposition);
                    out.add(EventField.of("CreateDisposition", InType.UINT8, OutType.NULL, disposition, name,
                            name == null ? EventField.LabelKind.NONE : EventField.LabelKind.NAME));
                }
                case "ShareAccess" -> out.add(f.withLabel(SHARE_ACCESS.label(v), EventField.LabelKind.FLAGS));
                case "FileAttributes", "CreateAttributes" ->
                        out.add(f.withLabel(FILE_ATTRIBUTES.label(v), EventField.LabelKind.FLAGS));
                default -> out.add(f);
            }
        }
        return out;
    }

    private static ValueMap bitMap(String name, Object... valueNames) {
        return ValueMap.of(name, true, valueNames);
    }

    private static ValueMap valueMap(String name, Object... valueNames) {
        return ValueMap.of(name, false, valueNames);
    }
}
