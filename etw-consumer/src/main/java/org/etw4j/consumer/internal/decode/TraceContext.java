package org.etw4j.consumer.internal.decode;

import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.consumer.EventField;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.ProcessInfo;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.FilePass;
import org.etw4j.format.EventHeaderLayout;

/**
 * What one trace says about itself that its other events need to be shown as TraceEvent shows them: the volume
 * mapping (NT device paths to drive letters), the processes and threads, and the file names behind file keys.
 * State per trace, per process, per thread and per file, never per event.
 *
 * <p>Mutable, not thread-safe: one thread feeds it the trace's records in time order and presents events; after a
 * first pass, {@link #presenter()} gives further threads their own presenters over the learned tables. Two ways
 * to use it:
 * <ul>
 *   <li>Whole file, as TraceEvent's TraceLog does (it reads a trace twice): a first pass hands every record to
 *       {@link #learn}, which decodes only the trace's process, thread, image, file-name and volume-mapping events;
 *       then {@link #present} each event of a second pass. An event logged before the rundown that names its process then has that process too.</li>
 *   <li>As events come (live sessions, one pass): {@link #observe} then {@link #present} each event; what a later
 *       event would tell is not known yet.</li>
 * </ul>
 *
 * <p>What {@link #present} changes (the decoded values stay; see {@link EventField.LabelKind}):
 * <ul>
 *   <li>File names in NT form get their drive-letter form as label ({@link EventField.LabelKind#DOS_PATH}), or,
 *       when the trace recorded no mapping for them, {@link EventField.LabelKind#UNMAPPED_NT_PATH} and a note. The
 *       file-name fields: Image {@code FileName}; FileIO {@code FileName} and {@code OpenPath}; Process
 *       {@code ImageFileName}; Microsoft-Windows-Kernel-File {@code FileName}; Microsoft-Windows-Kernel-Process
 *       {@code ImageName}; and the derived ones below.</li>
 *   <li>DiskIO Read/Write/FlushBuffers and Memory/HardFault get a {@code FileName} field after the others, the name
 *       the trace's FileIO events give their {@code FileKey} (TraceEvent prints the same), when one does.</li>
 *   <li>{@link DecodedEvent#process()} is the process the event belongs to.</li>
 * </ul>
 */
public final class TraceContext {

    /** Microsoft-Windows-Kernel-Process's provider GUID. */
    static final Guid KERNEL_PROCESS = Guid.parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");

    /** The note an event gets for a file name the trace's volume mapping does not cover. */
    static final String UNMAPPED_NOTE = ": NT path; the trace recorded no volume mapping for it";

    private final VolumeMap volumes;
    private final ProcessTable processes;
    private final FileNameTable files;
    /** DiskIO: the process that issued each IRP (from the Init events, which carry the issuing thread). */
    private final TimeHistory<Integer> irpIssuers;
    /** Set once {@link #presenter()} shared the tables: learning then stops, as other threads read them. */
    private boolean frozen;

    /** An empty context, to learn a trace by {@link #learn} or {@link #observe}. */
    public TraceContext() {
        this.volumes = new VolumeMap();
        this.processes = new ProcessTable(volumes);
        this.files = new FileNameTable();
        this.irpIssuers = new TimeHistory<>();
    }

    /** A presenter over {@code learned}'s tables (see {@link #presenter()}). */
    private TraceContext(TraceContext learned) {
        this.volumes = learned.volumes;
        this.processes = learned.processes;
        this.files = learned.files;
        this.irpIssuers = learned.irpIssuers;
        this.frozen = true;
    }

    /**
     * A context that presents events exactly as this one does, reading this one's learned tables (nothing is
     * copied), with its own working state: for several threads that present the events of one trace after one
     * first pass, each through its own presenter (the readers of one {@code org.etw4j.consumer.LearnedContext},
     * such as the Spark splits of one file, share one first pass this way). From this call on, this context and every presenter of it are frozen: {@link #learn} and
     * {@link #observe} throw {@link IllegalStateException}; call it on the thread that learned, and hand the
     * presenters to other threads through a synchronizing action (a concurrent map, a lock, a thread start).
     * Presenters are then safe to use from one thread each, concurrently with one another.
     */
    public TraceContext presenter() {
        frozen = true;
        return new TraceContext(this);
    }

    /**
     * Everything this context learned (volume mapping, processes with their instances, threads, file names, DiskIO
     * issuers by IRP), as text in a fixed order: two contexts that describe alike present every event alike. For
     * tests that compare ways of learning a trace.
     */
    String describe() {
        return volumes.describe() + processes.describe() + files.describe() + "irps\n"
                + irpIssuers.describe(String::valueOf);
    }

    /** The volume mapping recorded so far. */
    public VolumeMap volumes() {
        return volumes;
    }

    /** The processes and threads described so far. */
    public ProcessTable processes() {
        return processes;
    }

    /**
     * One record of a first pass over a whole trace: decodes it with {@code decoder} and {@link #observe}s it when
     * {@link #describesTrace} selects it; skips it cheaply otherwise. {@code r} is read during the call only.
     */
    public void learn(RawEventRecord r, EventDecoder decoder) {
        if (describesTrace(r)) {
            observe(r, decoder.decode(r));
        }
    }

    /**
     * Whether {@code r} is one of the events this context learns from (classic kernel Process events; Thread
     * Start/Stop/DCStart/DCStop; Image Load/DCStart; FileIO Name/FileCreate/FileRundown/Create; DiskIO
     * ReadInit/WriteInit/FlushInit; SysConfig SystemPaths/VolumeMapping): cheap, no allocation, to skip decoding
     * the others.
     */
    public static boolean describesTrace(RawEventRecord r) {
        if ((r.flags() & EventHeaderLayout.FLAG_CLASSIC_HEADER) == 0) {
            return false;
        }
        long msb = r.providerIdMsb();
        long lsb = r.providerIdLsb();
        int op = r.opcode();
        if (is(KernelSchemas.PROCESS, msb, lsb)) {
            return true;
        }
        if (is(KernelSchemas.THREAD, msb, lsb)) {
            return op >= ProcessTable.START && op <= ProcessTable.DC_STOP;
        }
        if (is(KernelSchemas.IMAGE, msb, lsb)) {
            return op == ProcessTable.IMAGE_LOAD || op == ProcessTable.DC_START;
        }
        if (is(KernelSchemas.FILE_IO, msb, lsb)) {
            return op == 0 || op == 32 || op == 36 || op == 64; // Name, FileCreate, FileRundown, Create
        }
        if (is(KernelSchemas.DISK_IO, msb, lsb)) {
            return op == 12 || op == 13 || op == 15; // ReadInit, WriteInit, FlushInit
        }
        return is(KernelSchemas.SYS_CONFIG, msb, lsb) && (op == 33 || op == 35); // SystemPaths, VolumeMapping
    }

    private static boolean is(Guid g, long msb, long lsb) {
        return g.mostSignificantBits() == msb && g.leastSignificantBits() == lsb;
    }

    /** Takes what {@code e}, the decoded form of {@code r}, tells about the trace; other events are ignored. */
    public void observe(RawEventRecord r, DecodedEvent e) {
        if (frozen) {
            throw new IllegalStateException("this trace context is shared by presenters; it learns no more");
        }
        if (e.source() != SchemaSource.KERNEL_MOF) {
            return;
        }
        long time = r.timestamp();
        if (e.providerId().equals(KernelSchemas.SYS_CONFIG)) {
            if (e.opcode() == 35) { // VolumeMapping
                volumes.add(string(e, "NtPath"), string(e, "DosPath"));
            } else if (e.opcode() == 33) { // SystemPaths
                volumes.addWindowsDirectory(string(e, "SystemWindowsDirectory"));
            }
            return;
        }
        if (e.providerId().equals(KernelSchemas.DISK_IO)) {
            int op = e.opcode();
            EventField irp = e.field("Irp");
            if ((op == 12 || op == 13 || op == 15) && irp != null && irp.asLong() != null) { // ReadInit, WriteInit, FlushInit
                int pid = r.processId() != -1 ? r.processId()
                        : r.threadId() != -1 ? processes.processOfThread(r.threadId(), time) : -1;
                if (pid != -1) {
                    irpIssuers.put(irp.asLong(), time, pid);
                }
            }
            return;
        }
        processes.observe(e, time);
        files.observe(e, time);
    }

    /** {@link #observe} then {@link #present}: for one pass over events as they come. */
    public DecodedEvent observeAndPresent(RawEventRecord r, DecodedEvent e) {
        observe(r, e);
        return present(r, e);
    }

    /**
     * {@link #present(RawEventRecord, DecodedEvent)} for the event in {@code view}, the decoded form of {@code r},
     * changed in place: events with file names to map or derive continue in the view's fallback mode (as
     * {@link #present(RawEventRecord, DecodedEvent)} gives them), the others only get their process. An event of a
     * provider with file-name fields that carries none of them (FileIO Read, Write, Cleanup...: a FileObject, no
     * name) is one of the others: presenting its decoded form would keep every field, add no note, and only set the
     * process.
     */
    public void present(RawEventRecord r, EventView view) {
        if (!view.isInPlace()) {
            view.presentAs(present(r, view.fallbackEvent()));
            return;
        }
        if (hasAnyField(view, pathFields(view.providerId(), view.source()))
                || needsFileName(view.source(), view.providerId(), view.opcode())
                && view.indexOf("FileName") < 0 && view.indexOf("FileKey") >= 0) {
            view.presentAs(present(r, view.copy()));
            return;
        }
        int pid = processIdOf(r, view);
        view.presentProcess(pid == -1 ? null : processes.find(pid, r.timestamp()));
    }

    /** {@code e}, the decoded form of {@code r}, with drive-letter paths, derived file names and its process. */
    public DecodedEvent present(RawEventRecord r, DecodedEvent e) {
        long time = r.timestamp();
        List<EventField> fields = e.fields();
        List<String> notes = List.of();
        String[] pathFields = pathFields(e.providerId(), e.source());
        if (pathFields.length > 0 || needsFileName(e)) {
            List<EventField> out = new ArrayList<>(fields.size() + 1);
            List<String> unmapped = new ArrayList<>(0);
            for (EventField f : fields) {
                out.add(isOneOf(f.name(), pathFields) ? path(f, unmapped) : f);
            }
            if (needsFileName(e)) {
                EventField key = e.field("FileKey");
                String name = key == null || key.asLong() == null ? null : files.find(key.asLong(), time);
                if (name != null) {
                    out.add(path(EventField.of("FileName", InType.UNICODE_STRING, OutType.NULL, name, null),
                            unmapped));
                }
            }
            fields = out;
            notes = unmapped;
        }
        int pid = processIdOf(r, e);
        ProcessInfo p = pid == -1 ? null : processes.find(pid, time);
        return e.presented(fields, notes, p);
    }

    /**
     * The process {@code e} belongs to, as TraceEvent attributes kernel events: for classic kernel Process, Thread,
     * Image and SystemConfig events the payload's {@code ProcessID}, for TcpIp and UdpIp events the payload's
     * {@code PID} (TraceEvent's parsers override ProcessID with them); else the record's process id; for records
     * without one (id -1): a DiskIO completion's issuer (the process of the Init event with the same Irp, as
     * TraceEvent's baselines show it), the process of the record's thread, or of the payload's ThreadID
     * (PerfInfo/Sample); {@code -1} when none is known.
     */
    public int processIdOf(RawEventRecord r, DecodedEvent e) {
        return processIdOf(r, wrapper.of(e));
    }

    /** Views {@link #processIdOf(RawEventRecord, DecodedEvent)} reads decoded events through (one thread). */
    private final EventView wrapper = EventView.forDecodedEvents();

    /** {@link #processIdOf(RawEventRecord, DecodedEvent)} of the event in {@code e}. */
    private int processIdOf(RawEventRecord r, EventView e) {
        long time = r.timestamp();
        boolean kernel = e.source() == SchemaSource.KERNEL_MOF;
        if (kernel) {
            Guid c = e.providerId();
            String field = c.equals(KernelSchemas.PROCESS) || c.equals(KernelSchemas.THREAD)
                    || c.equals(KernelSchemas.IMAGE) || c.equals(KernelSchemas.SYSTEM_CONFIG) ? "ProcessID"
                    : c.equals(KernelSchemas.TCP_IP) || c.equals(KernelSchemas.UDP_IP) ? "PID" : null;
            int i = field == null ? -1 : integerField(e, field);
            if (i >= 0) {
                return (int) e.getLong(i);
            }
        }
        if (r.processId() != -1) {
            return r.processId();
        }
        int irp = kernel && e.providerId().equals(KernelSchemas.DISK_IO) ? integerField(e, "Irp") : -1;
        if (irp >= 0) {
            Integer issuer = irpIssuers.at(e.getLong(irp), time);
            if (issuer != null) {
                return issuer;
            }
        }
        if (r.threadId() != -1) {
            return processes.processOfThread(r.threadId(), time);
        }
        int tid = e.source() == SchemaSource.KERNEL_MOF ? integerField(e, "ThreadID") : -1;
        return tid < 0 ? -1 : processes.processOfThread((int) e.getLong(tid), time);
    }

    /**
     * The index of the first field named {@code name} when it decoded to an integer, else -1 (as
     * {@code ProcessTable.intField}: a missing field, a failed one or another type count as absent).
     */
    private static int integerField(EventView e, String name) {
        int i = e.indexOf(name);
        return i >= 0 && e.isInteger(i) ? i : -1;
    }

    /** {@code f}, a file name, labelled with its drive-letter form; unmapped NT paths named in {@code unmapped}. */
    private EventField path(EventField f, List<String> unmapped) {
        if (f.error() != null || !(f.value() instanceof String s) || !VolumeMap.isNtPath(s) || s.startsWith("\\\\")) {
            return f;
        }
        String dos = volumes.toDos(s);
        if (dos != null) {
            return f.withLabel(dos, EventField.LabelKind.DOS_PATH);
        }
        unmapped.add(f.name() + UNMAPPED_NOTE);
        return f.withLabel(null, EventField.LabelKind.UNMAPPED_NT_PATH);
    }

    private static final String[] NONE = {};
    private static final String[] FILE_NAME = {"FileName"};
    private static final String[] FILE_IO = {"FileName", "OpenPath"};
    private static final String[] IMAGE_FILE_NAME = {"ImageFileName"};
    private static final String[] IMAGE_NAME = {"ImageName"};

    private static String[] pathFields(Guid p, SchemaSource source) {
        if (source == SchemaSource.KERNEL_MOF) {
            if (p.equals(KernelSchemas.IMAGE)) {
                return FILE_NAME;
            }
            if (p.equals(KernelSchemas.FILE_IO)) {
                return FILE_IO;
            }
            return p.equals(KernelSchemas.PROCESS) ? IMAGE_FILE_NAME : NONE;
        }
        if (p.equals(KernelFieldNames.KERNEL_FILE)) {
            return FILE_NAME;
        }
        return p.equals(KERNEL_PROCESS) ? IMAGE_NAME : NONE;
    }

    /** DiskIO Read/Write/FlushBuffers... and Memory/HardFault: events with a FileKey but no name. */
    private static boolean needsFileName(DecodedEvent e) {
        return needsFileName(e.source(), e.providerId(), e.opcode()) && e.field("FileName") == null
                && e.field("FileKey") != null;
    }

    /** Whether events of this kind may need a derived {@code FileName} (when they have a FileKey and no name). */
    private static boolean needsFileName(SchemaSource source, Guid p, int opcode) {
        return source == SchemaSource.KERNEL_MOF
                && (p.equals(KernelSchemas.DISK_IO) || (p.equals(KernelSchemas.PAGE_FAULT) && opcode == 32));
    }

    private static boolean hasAnyField(EventView view, String[] names) {
        for (String n : names) {
            if (view.indexOf(n) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean isOneOf(String name, String[] names) {
        for (String n : names) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static String string(DecodedEvent e, String field) {
        EventField f = e.field(field);
        return f != null && f.value() instanceof String s ? s : null;
    }
}
