package org.etw4j.consumer.internal.decode;

import org.etw4j.Guid;
import org.etw4j.controller.WellKnownProviders;

/**
 * The one rule by which every etw4j tool names a provider (dump, live, timeline, profile, summary, report, Spark's
 * {@code provider_name}, {@link ProviderSelection}), first match wins:
 * <ol>
 *   <li>the trace's own metadata: a TraceLogging event's provider traits, an EventSource's manifest carried in the
 *       trace, in-trace TDH metadata (what the decoder's schema says);</li>
 *   <li>the classic kernel's event groups: {@value WellKnownProviders#KERNEL}, TraceEvent's name for every event of
 *       its kernel parser (the group is the event's task: {@code Windows Kernel/PerfInfo/Sample});</li>
 *   <li>the manifests given (the {@code --manifest} files, ReadSettings' manifests, the CLR's built-in ones);</li>
 *   <li>{@link WellKnownProviders}: the commonly traced providers' GUIDs, with their sources;</li>
 *   <li>the GUID's text.</li>
 * </ol>
 * The first three come with the schema the decoder finds; this class holds the last two, which also name events no
 * schema describes and the providers {@code etw summary} counts without decoding. The table's names are the names
 * those providers give themselves, so a provider keeps one name whether or not a trace carries its metadata: within
 * a run and across files (Spark's {@code groupBy("provider_name")} gives one row per provider).
 *
 * <p>Stateless; thread-safe.
 */
public final class ProviderNames {
    private ProviderNames() {
    }

    /** The name of a provider that nothing in the trace or the given manifests names; null when unknown. */
    public static String known(Guid provider) {
        return WellKnownProviders.nameOf(provider).orElse(null);
    }

    /** {@link #known}, else the GUID's text: the name of a provider nothing describes. */
    public static String nameOrId(Guid provider) {
        String name = known(provider);
        return name != null ? name : provider.toString();
    }

    /**
     * The classic kernel group of {@code eventClass}, as the task of its events is named ({@code PerfInfo},
     * {@code DiskIO}, ...); null for any other GUID.
     */
    public static String kernelGroup(Guid eventClass) {
        return WellKnownProviders.kernelGroupOf(eventClass).orElse(null);
    }
}
