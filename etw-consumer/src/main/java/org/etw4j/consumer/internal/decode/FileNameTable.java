package org.etw4j.consumer.internal.decode;

import org.etw4j.consumer.EventField;
import org.etw4j.consumer.SchemaSource;

/**
 * File names by the kernel's file keys and file objects, from a trace's FileIO name events, so that events that
 * carry only a key (DiskIO, Memory/HardFault) can show the file. Mutable, not thread-safe (one {@link TraceContext}).
 *
 * <p>Sources (MS Learn FileIo_Name: "FileObject ... Match the value of this pointer to the FileObject pointer value
 * in a DiskIo_TypeGroup1 event", which TraceEvent calls FileKey): FileIO Name (0), FileCreate (32) and the
 * rundown's FileRundown (36) map their {@code FileObject} to {@code FileName}; FileIO/Create (64) maps its per-open
 * {@code FileObject} to {@code OpenPath}. Names stay as the trace wrote them (NT form); lookups by time follow
 * {@link TimeHistory} (a name the closing rundown gives also names the earlier I/O on that key, as in TraceEvent's
 * baselines).
 */
final class FileNameTable {

    private final TimeHistory<String> names = new TimeHistory<>();

    /** Takes the file names {@code e} (logged at {@code time}, FILETIME) gives; other events are ignored. */
    void observe(DecodedEvent e, long time) {
        if (e.source() != SchemaSource.KERNEL_MOF || !e.providerId().equals(KernelSchemas.FILE_IO)) {
            return;
        }
        int op = e.opcode();
        String nameField = op == 0 || op == 32 || op == 36 ? "FileName" : op == 64 ? "OpenPath" : null;
        if (nameField == null) {
            return;
        }
        EventField key = e.field("FileObject");
        EventField name = e.field(nameField);
        if (key != null && key.asLong() != null && name != null && name.value() instanceof String s && !s.isEmpty()) {
            names.put(key.asLong(), time, s);
        }
    }

    /** What the table learned, as text (see {@link TraceContext#describe()}). */
    String describe() {
        return "files\n" + names.describe(n -> n);
    }

    /** The name of file key (or file object) {@code key} at {@code time}, or {@code null}. */
    String find(long key, long time) {
        return names.at(key, time);
    }
}
