package org.etw4j.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.etw4j.EventDescriptor;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.controller.PayloadPredicate;
import org.etw4j.provider.EventData;
import org.etw4j.tracelogging.DecodedField;
import org.etw4j.tracelogging.TraceLoggingSchema;

/**
 * One session's enable parameters for one provider, compiled for the write path: the per-session decision
 * whether an event is delivered (MS Learn, EVENT_DESCRIPTOR structure: level and keyword rules, IGNORE_KEYWORD_0, event-id, process-id,
 * executable and payload filters).
 *
 * <p>Immutable; thread-safe. {@link #accepts} allocates nothing unless a payload filter must decode the event.
 * Process-id and executable filters are decided once: every event of the simulated backend comes from this
 * process.
 */
final class SessionFilter {
    static final SessionFilter[] NONE = new SessionFilter[0];
    final SimSession session;
    final EnableParameters parameters;
    private final int level;
    private final long any;
    private final long all;
    private final boolean ignoreKeyword0;
    private final int[] eventIds;
    private final boolean eventIdsAllow;
    private final boolean thisProcessPasses;
    private final EventFilter.Payload payload;
    final boolean wantsSid;
    final boolean wantsTsId;
    final boolean wantsStack;
    final boolean wantsProcessStartKey;

    SessionFilter(SimSession session, EnableParameters p, int pid, String executable) {
        this.session = session;
        this.parameters = p;
        this.level = p.level();
        this.any = p.matchAnyKeyword();
        this.all = p.matchAllKeyword();
        this.ignoreKeyword0 = p.has(EnableProperty.IGNORE_KEYWORD_0);
        EventFilter.EventIds ids = p.filter(EventFilter.EventIds.class);
        this.eventIds = ids == null ? null : ids.ids().stream().mapToInt(Integer::intValue).sorted().toArray();
        this.eventIdsAllow = ids == null || ids.enable();
        EventFilter.ProcessIds pids = p.filter(EventFilter.ProcessIds.class);
        EventFilter.ExecutableNames exes = p.filter(EventFilter.ExecutableNames.class);
        this.thisProcessPasses = (pids == null || pids.pids().contains(pid)) && (exes == null || exes.matches(executable));
        this.payload = p.filter(EventFilter.Payload.class);
        this.wantsSid = p.has(EnableProperty.SID);
        this.wantsTsId = p.has(EnableProperty.TS_ID);
        this.wantsStack = p.has(EnableProperty.STACK_TRACE);
        this.wantsProcessStartKey = p.has(EnableProperty.PROCESS_START_KEY);
    }

    /**
     * MS Learn, EVENT_DESCRIPTOR structure: level, then keyword (keyword 0 bypasses unless IGNORE_KEYWORD_0), then the system filters.
     *
     * <p>Level 0 in the session's enable parameters admits every level. MS Learn gives it no meaning of its own
     * (EnableTraceEx2 defines levels 1-5; EnableTrace asks for 1 to 255), but Windows records events of every
     * level for a session enabled at 0: microsoft/perfview issue 598 (comment of 2025-07-30) reports
     * Microsoft-Windows-DotNETRuntime enabled at level 0 still recording its threading events, which level 1
     * stopped; TraceEvent's TraceEventLevel.Always (0) is documented "Always log the event". The provider side
     * reads 0 the same way ({@link org.etw4j.provider.EnableState#isEnabled}). Inferred from those reports, not
     * observed here; RealEtwTest checks it on Windows.
     */
    boolean accepts(EventDescriptor d, EventData data, int metadataIndex) {
        if (!thisProcessPasses) {
            return false;
        }
        if (d.level() > level && level != 0) {
            return false; // a session enabled at level 0 takes every level, as Windows does (see levelZero below)
        }
        long k = d.keyword();
        if (k == 0) {
            if (ignoreKeyword0) {
                return false;
            }
        } else if ((k & any) == 0 || (k & all) != all) {
            return false;
        }
        if (eventIds != null && (java.util.Arrays.binarySearch(eventIds, d.id()) >= 0) != eventIdsAllow) {
            return false;
        }
        return payload == null || payloadPasses(d, data, metadataIndex);
    }

    private boolean payloadPasses(EventDescriptor d, EventData data, int metadataIndex) {
        if (payload.eventName() == null) {
            // Manifest events: the simulated backend has no manifest to decode them by, so the filter
            // selects by id and cannot read fields; such events are dropped rather than guessed at.
            return d.id() != payload.eventId();
        }
        if (metadataIndex < 0) {
            return true; // not a TraceLogging event: the filter does not apply
        }
        TraceLoggingSchema schema;
        try {
            byte[] meta = new byte[data.length(metadataIndex)];
            System.arraycopy(data.array(metadataIndex), data.offset(metadataIndex), meta, 0, meta.length);
            schema = TraceLoggingSchema.parse(meta);
        } catch (RuntimeException e) {
            return false;
        }
        if (!payload.eventName().equals(schema.name())) {
            return true;
        }
        List<DecodedField> fields;
        try {
            ByteBuffer bytes = ByteBuffer.wrap(data.payloadBytes()).order(ByteOrder.LITTLE_ENDIAN);
            fields = schema.decode(bytes, 8);
        } catch (RuntimeException e) {
            return false;
        }
        boolean matchAny = payload.matchAny();
        for (PayloadPredicate pred : payload.predicates()) {
            Object value = null;
            for (DecodedField f : fields) {
                if (f.name().equals(pred.field())) {
                    value = f.value();
                    break;
                }
            }
            boolean ok = pred.test(value);
            if (matchAny && ok) {
                return true;
            }
            if (!matchAny && !ok) {
                return false;
            }
        }
        return !matchAny;
    }
}
