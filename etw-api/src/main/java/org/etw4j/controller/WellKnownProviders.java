package org.etw4j.controller;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.etw4j.Guid;

/**
 * The names and GUIDs of commonly traced Windows and .NET providers, and of the classic kernel's event groups, as
 * TraceEvent/PerfView name them: the last source of a provider's name when neither the trace nor a manifest names
 * it (etw-consumer's {@code ProviderNames} rule), and of a GUID for a name that is neither registered on the
 * machine nor in a given manifest ({@link ProviderResolution.Rule#WELL_KNOWN}).
 *
 * <p>Immutable tables; thread-safe. Facts, each with its source:
 * <ul>
 *   <li><b>TraceEvent's parsers</b> (microsoft/perfview f3ec1b38, src/TraceEvent/Parsers, their {@code ProviderName}
 *       and {@code ProviderGuid} constants): the CLR's four providers (ClrTraceEventParser,
 *       ClrPrivateTraceEventParser), TplEventSource, AspNetTrace, Microsoft-Windows-Kernel-File, -TCPIP,
 *       -NDIS-PacketCapture, -WPF, Microsoft-DotNETCore-SampleProfiler, {@code Windows Kernel}
 *       (KernelTraceEventParser, the SystemTraceControlGuid), and its HeapTraceProvider, CritSecTraceProvider and
 *       ThreadPool parsers; Microsoft-Windows-Kernel-Memory and -Kernel-EventTracing (KernelTraceEventParser's
 *       {@code MemoryProviderGuid}, {@code EventTracingProviderGuid}); KernelTraceControl's ImageID and MetaData
 *       task GUIDs (SymbolTraceEventParser).</li>
 *   <li><b>PerfView's session set-up</b> (src/PerfView/CommandProcessor.cs, {@code EnableUserProvider(name, guid)}):
 *       Microsoft-Windows-Kernel-Process, -Kernel-Power, -Kernel-Processor-Power, -DNS-Client, -WinINet,
 *       -HttpService, -Win32k, -IIS, *Microsoft-Windows-ASPNET (an EventSource: the star is PerfView's mark for
 *       "derive the GUID", the GUID is the one it derives).</li>
 *   <li><b>Windows' own manifest providers</b>, as Windows registers them (name and GUID pairs seen in
 *       {@code logman query providers} listings and in public ETW tools' sources; dissect.etl bundles
 *       Kernel-Registry's manifest as dissect/etl/manifests/xml/{70eb4f03-...}.xml; the krabsetw corpus trace
 *       records PowerShell's GUID): Microsoft-Windows-Kernel-Network, -Kernel-Registry, -PowerShell,
 *       Microsoft-Antimalware-Scan-Interface. No MS Learn page lists these GUIDs; they are the weakest sourced
 *       entries of the table.</li>
 *   <li><b>Names traces carry</b> (TraceEvent's baseline of net.4.5.2.x64.etl, decoded on Windows):
 *       System.Diagnostics.Eventing.FrameworkEventSource, the name .NET Framework's EventSource gives itself
 *       (TraceEvent's FrameworkTraceEventParser calls it FrameworkEventSource; a trace's own name wins, so the
 *       table says what traces say).</li>
 *   <li><b>The classic kernel's event groups</b> ({@code EVENT_TRACE_GROUP_*} of ntwmi.h, whose MOF classes are
 *       children of MSNT_SystemTrace; GUIDs as dissect.etl's {@code GROUP_GUID_MAP} and MS Learn's MOF class pages
 *       give them, plus SysConfig and LostEvent from TraceEvent's kernel parser): all named {@code Windows Kernel},
 *       the name TraceEvent gives every event of its kernel parser (its baselines print
 *       {@code Windows Kernel/PerfInfo/Sample}); the group is the event's task. The Heap, CritSec and ThreadPool
 *       groups keep the names of TraceEvent's own parsers for them. Read from {@link KernelEventGroup}, etw4j's one
 *       table of these GUIDs.</li>
 * </ul>
 */
public final class WellKnownProviders {
    private WellKnownProviders() {
    }

    /** TraceEvent's name of the classic kernel provider, for every kernel event group. */
    public static final String KERNEL = "Windows Kernel";

    private static final Map<Guid, String> NAMES;
    private static final Map<String, Guid> IDS;
    private static final Map<Guid, String> KERNEL_GROUPS;

    static {
        Map<Guid, String> names = new LinkedHashMap<>();
        Map<String, Guid> ids = new HashMap<>();
        // name -> the GUID a session enables (first listed wins for a name)
        String[][] providers = {
            {"9e814aad-3204-11d2-9a82-006008a86939", KERNEL},
            {"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime"},
            {"a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown"},
            {"763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate"},
            {"cc2bcbba-16b6-4cf3-8990-d74c2e8af500", "Microsoft-Windows-DotNETRuntimeStress"},
            {"2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", "System.Threading.Tasks.TplEventSource"},
            {"8e9f5090-2d75-4d03-8a81-e5afbf85daf1", "System.Diagnostics.Eventing.FrameworkEventSource"},
            {"aff081fe-0247-4275-9c4e-021f3dc1da35", "AspNetTrace"},
            {"ee799f41-cfa5-550b-bf2c-344747c1c668", "Microsoft-Windows-ASPNET"},
            {"de4649c9-15e8-4fea-9d85-1cdda520c334", "Microsoft-Windows-IIS"},
            {"3c530d44-97ae-513a-1e6d-783e8f8e03a9", "Microsoft-DotNETCore-SampleProfiler"},
            {"22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716", "Microsoft-Windows-Kernel-Process"},
            {"edd08927-9cc4-4e65-b970-c2560fb5c289", "Microsoft-Windows-Kernel-File"},
            {"7dd42a49-5329-4832-8dfd-43d979153a88", "Microsoft-Windows-Kernel-Network"},
            {"70eb4f03-c1de-4f73-a051-33d13d5413bd", "Microsoft-Windows-Kernel-Registry"},
            {"d1d93ef7-e1f2-4f45-9943-03d245fe6c00", "Microsoft-Windows-Kernel-Memory"},
            {"b675ec37-bdb6-4648-bc92-f3fdc74d3ca2", "Microsoft-Windows-Kernel-EventTracing"},
            {"331c3b3a-2005-44c2-ac5e-77220c37d6b4", "Microsoft-Windows-Kernel-Power"},
            {"0f67e49f-fe51-4e9f-b490-6f2948cc6027", "Microsoft-Windows-Kernel-Processor-Power"},
            {"2f07e2ee-15db-40f1-90ef-9d7ba282188a", "Microsoft-Windows-TCPIP"},
            {"2ed6006e-4729-4609-b423-3ee7bcd678ef", "Microsoft-Windows-NDIS-PacketCapture"},
            {"1c95126e-7eea-49a9-a3fe-a378b03ddb4d", "Microsoft-Windows-DNS-Client"},
            {"43d1a55c-76d6-4f7e-995c-64c711e5cafe", "Microsoft-Windows-WinINet"},
            {"dd5ef90a-6398-47a4-ad34-4dcecdef795f", "Microsoft-Windows-HttpService"},
            {"8c416c79-d49b-4f01-a467-e56d3aa8234c", "Microsoft-Windows-Win32k"},
            {"e13b77a8-14b6-11de-8069-001b212b5009", "Microsoft-Windows-WPF"},
            {"a0c1853b-5c40-4b15-8766-3cf1c58f985a", "Microsoft-Windows-PowerShell"},
            {"2a576b87-09a7-520e-c21a-4942f0271d67", "Microsoft-Antimalware-Scan-Interface"},
            {"28ad2447-105b-4fe2-9599-e59b2aa9a634", "KernelTraceControl"},
            // KernelTraceControl's ImageID and MetaData task GUIDs (SymbolTraceEventParser)
            {"b3e675d7-2554-4f18-830b-2762732560de", "KernelTraceControl"},
            {"bbccf6c1-6cd1-48c4-80ff-839482e37671", "KernelTraceControl"},
        };
        for (String[] p : providers) {
            Guid id = Guid.parse(p[0]);
            names.put(id, p[1]);
            ids.putIfAbsent(p[1].toLowerCase(Locale.ROOT), id);
        }
        // kernel groups TraceEvent parses with providers of their own (KernelTraceEventParser.cs)
        for (KernelEventGroup g : KernelEventGroup.values()) {
            g.traceEventProvider().ifPresent(name -> {
                names.put(g.guid(), name);
                ids.putIfAbsent(name.toLowerCase(Locale.ROOT), g.guid());
            });
        }
        // the classic kernel's event groups (group GUID -> the group's name, TraceEvent's task name where it has one)
        Map<Guid, String> kernel = new LinkedHashMap<>();
        for (KernelEventGroup g : KernelEventGroup.values()) {
            g.taskName().ifPresent(task -> {
                kernel.put(g.guid(), task);
                names.put(g.guid(), KERNEL);
            });
        }
        NAMES = Collections.unmodifiableMap(names);
        IDS = Collections.unmodifiableMap(ids);
        KERNEL_GROUPS = Collections.unmodifiableMap(kernel);
    }

    /** The name of a provider (or kernel event group) this table knows; empty otherwise. */
    public static Optional<String> nameOf(Guid provider) {
        return Optional.ofNullable(NAMES.get(provider));
    }

    /**
     * The GUID a session enables for a provider name this table knows (ignoring case); empty otherwise.
     * {@code Windows Kernel} gives the SystemTraceControlGuid, which only a kernel session enables.
     */
    public static Optional<Guid> idOf(String name) {
        return Optional.ofNullable(IDS.get(name.trim().toLowerCase(Locale.ROOT)));
    }

    /**
     * The name of the classic kernel event group whose GUID this is (TraceEvent's task name for it, e.g.
     * {@code PerfInfo}, {@code DiskIO}); empty for any other GUID.
     */
    public static Optional<String> kernelGroupOf(Guid eventClass) {
        return Optional.ofNullable(KERNEL_GROUPS.get(eventClass));
    }

    /** Every GUID this table names, with its name (unmodifiable, in the table's order). */
    public static Map<Guid, String> all() {
        return NAMES;
    }
}
