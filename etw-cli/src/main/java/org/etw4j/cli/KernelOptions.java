package org.etw4j.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.etw4j.controller.ClassicEventId;
import org.etw4j.controller.KernelFlag;
import org.etw4j.controller.KernelLogger;
import org.etw4j.controller.KernelTracing;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code etw record}'s kernel options: {@code --kernel GROUPS}, {@code --stacks}, {@code --sample-interval},
 * {@code --kernel-logger}; turned into the session's {@link KernelTracing}.
 *
 * <p>A picocli mixin: one instance per command line, not thread-safe. The group names are short names for
 * {@link KernelFlag}s (as xperf's and PerfView's kernel keywords are), and every {@link KernelFlag} name is accepted
 * too. The process, thread and image groups are always added: without their rundown nothing in the trace names the
 * processes and modules the samples and stacks belong to (PerfView's kernel sessions always include them too).
 */
final class KernelOptions {
    /** Short group names to their flags and the kernel events whose stacks {@code --stacks} asks for. */
    private static final Map<String, Group> GROUPS = Map.ofEntries(
            Map.entry("cpu", new Group(EnumSet.of(KernelFlag.PROFILE), List.of(ClassicEventId.SAMPLED_PROFILE))),
            Map.entry("cswitch", new Group(EnumSet.of(KernelFlag.CSWITCH), List.of(ClassicEventId.CSWITCH))),
            Map.entry("dispatcher", new Group(EnumSet.of(KernelFlag.DISPATCHER), List.of(ClassicEventId.READY_THREAD))),
            Map.entry("process", new Group(EnumSet.of(KernelFlag.PROCESS), List.of(ClassicEventId.PROCESS_START))),
            Map.entry("thread", new Group(EnumSet.of(KernelFlag.THREAD), List.of(ClassicEventId.THREAD_START))),
            Map.entry("image", new Group(EnumSet.of(KernelFlag.IMAGE_LOAD), List.of(ClassicEventId.IMAGE_LOAD))),
            Map.entry("disk", new Group(EnumSet.of(KernelFlag.DISK_IO, KernelFlag.DISK_IO_INIT),
                    List.of(ClassicEventId.DISK_READ, ClassicEventId.DISK_WRITE))),
            Map.entry("file", new Group(EnumSet.of(KernelFlag.FILE_IO, KernelFlag.FILE_IO_INIT, KernelFlag.DISK_FILE_IO),
                    List.of(ClassicEventId.FILE_CREATE, ClassicEventId.FILE_READ, ClassicEventId.FILE_WRITE))),
            Map.entry("network", new Group(EnumSet.of(KernelFlag.NETWORK_TCPIP), List.of())),
            Map.entry("registry", new Group(EnumSet.of(KernelFlag.REGISTRY), List.of())),
            Map.entry("pagefault", new Group(EnumSet.of(KernelFlag.MEMORY_PAGE_FAULTS), List.of())),
            Map.entry("hardfault", new Group(EnumSet.of(KernelFlag.MEMORY_HARD_FAULTS), List.of())));

    private record Group(Set<KernelFlag> flags, List<ClassicEventId> stacks) {
    }

    @Option(names = "--kernel", paramLabel = "GROUPS", split = ",",
            description = "kernel events to record (SystemTraceProvider): cpu, cswitch, dispatcher, disk, file, "
                    + "network, registry, pagefault, hardfault, process, thread, image, or an EVENT_TRACE_FLAG name "
                    + "(e.g. DPC); process, thread and image are always added for their rundown")
    List<String> kernel = new ArrayList<>();

    @Option(names = "--stacks", description = "collect call stacks: on the kernel events of --kernel (CPU samples, "
            + "context switches, I/O...) and on every --provider's events (EVENT_ENABLE_PROPERTY_STACK_TRACE)")
    boolean stacks;

    @Option(names = "--sample-interval", paramLabel = "TIME", converter = DurationConverter.class,
            description = "CPU sampling interval for --kernel cpu, e.g. 1ms (Windows' default) or 500ms; "
                    + "machine-wide on Windows while the session runs")
    Duration sampleInterval;

    @Option(names = "--kernel-logger", paramLabel = "KIND", defaultValue = "system",
            description = "system (a system logger session, Windows 8+, named by --session) or nt (the NT Kernel "
                    + "Logger, one per machine; the session is then named 'NT Kernel Logger'); default: ${DEFAULT-VALUE}")
    String kernelLogger;

    /** Whether any kernel option asks for kernel events. */
    boolean wanted() {
        return !kernel.isEmpty();
    }

    /** The session's kernel part, or null without {@code --kernel}; a bad group name or value is a usage error. */
    KernelTracing tracing(CommandLine cl) {
        if (kernel.isEmpty()) {
            if (sampleInterval != null) {
                throw new CommandLine.ParameterException(cl, "--sample-interval needs --kernel cpu");
            }
            return null;
        }
        Set<KernelFlag> flags = EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.IMAGE_LOAD);
        Set<ClassicEventId> stackEvents = new LinkedHashSet<>();
        for (String raw : kernel) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            Group g = GROUPS.get(name);
            if (g == null) {
                g = new Group(EnumSet.of(flag(cl, raw.trim())), List.of());
            }
            flags.addAll(g.flags());
            if (stacks && !List.of("process", "thread", "image").contains(name)) {
                stackEvents.addAll(g.stacks());
            }
        }
        KernelLogger kind = switch (kernelLogger.toLowerCase(Locale.ROOT)) {
            case "system" -> KernelLogger.SYSTEM_LOGGER;
            case "nt" -> KernelLogger.NT_KERNEL_LOGGER;
            default -> throw new CommandLine.ParameterException(cl, "--kernel-logger must be system or nt, got '"
                    + kernelLogger + "'");
        };
        KernelTracing k = new KernelTracing(flags, kind, 0, List.copyOf(stackEvents));
        if (sampleInterval != null) {
            if (!flags.contains(KernelFlag.PROFILE)) {
                throw new CommandLine.ParameterException(cl, "--sample-interval needs --kernel cpu");
            }
            try {
                k = k.withSamplingInterval(sampleInterval);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--sample-interval: " + e.getMessage());
            }
        }
        return k;
    }

    /** The session name: the NT Kernel Logger's own with {@code --kernel-logger nt}, else {@code session}. */
    String sessionName(String session) {
        return wanted() && "nt".equalsIgnoreCase(kernelLogger) ? KernelTracing.KERNEL_LOGGER_NAME : session;
    }

    private static KernelFlag flag(CommandLine cl, String name) {
        String n = name.toUpperCase(Locale.ROOT);
        if (n.startsWith("EVENT_TRACE_FLAG_")) {
            n = n.substring("EVENT_TRACE_FLAG_".length());
        }
        try {
            return KernelFlag.valueOf(n);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--kernel: unknown group '" + name + "' (cpu, cswitch, "
                    + "dispatcher, disk, file, network, registry, pagefault, hardfault, process, thread, image, or an "
                    + "EVENT_TRACE_FLAG name)");
        }
    }
}
