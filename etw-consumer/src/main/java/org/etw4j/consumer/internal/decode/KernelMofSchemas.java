package org.etw4j.consumer.internal.decode;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.consumer.internal.schema.SchemaProvider;
import org.etw4j.consumer.internal.schema.SchemaQuery;

/**
 * The built-in classic kernel (MOF) layouts in the chain: a thin wrapper around {@link KernelSchemas}, which
 * holds the tables. A record with the classic-header flag is identified by its event-class GUID, opcode and
 * version (as in an {@code EVENT_RECORD} from ProcessTrace). A class it knows without a layout for the event names
 * the event ({@code Task/Opcode(n)}) for when nothing later in the chain describes it.
 * Thread-safe (the tables are immutable; the name cache holds immutable entries, so threads may race on a slot).
 */
final class KernelMofSchemas implements SchemaProvider {

    private final KernelSchemas kernel;

    KernelMofSchemas(KernelSchemas kernel) {
        this.kernel = kernel;
    }

    @Override
    public Reads reads() {
        return Reads.CLASSIC_HEADERS;
    }

    @Override
    public boolean resolve(SchemaQuery q) {
        int opcode = q.record().opcode();
        int version = q.record().version();
        KernelSchemas.Lookup hit = kernel.find(q.provider(), opcode, version);
        EventSchema s = hit.schema();
        if (s == null) {
            NoLayout t = noLayout(q.provider(), hit, opcode, version);
            q.describeMiss(t.providerName(), t.eventName(), hit.taskName(), 0, t.notes());
            return false;
        }
        if (s.version() == version) {
            return q.found(s, hit.notes());
        }
        List<String> notes = new java.util.ArrayList<>(hit.notes());
        notes.add("decoded with the layout of version " + s.version() + " (event has version " + version + ")");
        return q.found(s, notes);
    }

    /** The texts of a classic event without layout, by class, opcode and version. */
    private record NoLayout(Guid eventClass, int opcode, int version, String providerName, String eventName,
                            List<String> notes) {
    }

    /** Texts of classic events without layout (direct-mapped; immutable entries, so threads may race on a slot). */
    private final NoLayout[] noLayouts = new NoLayout[512];

    /** The names and note an event of this class, opcode and version without layout gets. */
    private NoLayout noLayout(Guid eventClass, KernelSchemas.Lookup hit, int opcode, int version) {
        int slot = (eventClass.hashCode() * 31 + opcode * 257 + version) & (noLayouts.length - 1);
        NoLayout t = noLayouts[slot];
        if (t == null || t.opcode() != opcode || t.version() != version || !t.eventClass().equals(eventClass)) {
            String name = hit.taskName() != null ? hit.taskName() + "/Opcode(" + opcode + ")"
                    : "Opcode(" + opcode + ")";
            String providerName = hit.providerName() != null ? hit.providerName() : ProviderNames.nameOrId(eventClass);
            String why = kernel.whyUndecoded(eventClass, opcode, version); // KernelSchemas knows why, when it does
            t = new NoLayout(eventClass, opcode, version, providerName, name, List.of("no layout for classic event "
                    + "class " + eventClass + " opcode " + opcode + " version " + version
                    + (why == null ? "" : ": " + why)));
            noLayouts[slot] = t;
        }
        return t;
    }
}
