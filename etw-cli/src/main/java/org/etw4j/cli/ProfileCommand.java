package org.etw4j.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlFormatException;
import org.etw4j.consumer.model.CpuProfile;
import org.etw4j.consumer.model.TraceModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code etw profile FILE... [--process NAME|PID] --format collapsed|speedscope [-o FILE]}: the CPU samples of
 * kernel traces (PerfInfo/SampleProf with their StackWalk stacks) as folded stacks or a speedscope file.
 *
 * <p>A picocli command object: one instance per command line, not thread-safe. Builds a {@link TraceModel} (two
 * passes over the files) and writes its {@link CpuProfile}. Frames are {@code module!+0xOFFSET}: native function
 * names need PDB symbol files (not resolved); .NET JIT-compiled frames are
 * {@code Module!Namespace.Type.Method+0xOFFSET} from the trace's CLR method and loader events.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        header = "Write the CPU samples of kernel .etl files as folded stacks or speedscope JSON.",
        description = "Samples are the kernel's PerfInfo/SampleProf events joined to their StackWalk stacks (also "
                + "with stack caching); frames are module!+0xOFFSET (no PDB symbols), .NET JIT-compiled code "
                + "Module!Namespace.Type.Method+0xOFFSET. Folded stacks: root first, "
                + "';'-separated, then a space and the count; the root frame is the process, 'name (pid)'. "
                + "Pure Java: any OS.")
final class ProfileCommand implements Callable<Integer> {
    /** The output formats. */
    enum Format { collapsed, speedscope }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = ".etl file(s)")
    List<Path> files;

    @Option(names = "--process", paramLabel = "NAME|PID",
            description = "only samples of processes with this name (e.g. Test.x64, case-insensitive, '.exe' optional)"
                    + " or id; repeatable")
    List<String> processes = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "collapsed",
            description = "collapsed or speedscope (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--per-thread", description = "collapsed: a frame per thread below the process")
    boolean perThread;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE instead of stdout (- for "
            + "stdout; an existing FILE needs --force)")
    Path output;

    @Mixin
    OutputTarget.Force force;

    @Mixin
    TraceWarnings.ListOption warningsOption;

    @Override
    public Integer call() throws IOException {
        InputFiles.check(files);
        TraceWarnings warnings = new TraceWarnings();
        List<EtlFile> open = new ArrayList<>();
        CpuProfile profile;
        try (OutputTarget target = OutputTarget.open(output, force.force, spec.commandLine().getOut())) {
            try (Progress progress = Progress.start(spec.commandLine().getErr(), "opening", 0)) {
                for (Path f : files) {
                    progress.label("opening " + f.getFileName());
                    try {
                        open.add(EtlFile.open(f, warnings.options()));
                    } catch (IOException | RuntimeException e) {
                        throw new CliException(f + ": " + EtwCommand.oneLine(e), e);
                    }
                }
                progress.label(files.size() == 1 ? "reading " + files.get(0).getFileName() : "reading " + files.size()
                        + " files");
                profile = TraceModel.read(open, progress.modelRead()).cpuProfile();
            } catch (EtlFormatException e) {
                throw new CliException(EtwCommand.oneLine(e), e);
            } finally {
                for (EtlFile f : open) {
                    f.close();
                }
            }
            long allSamples = profile.sampleCount();
            if (!processes.isEmpty()) {
                profile = profile.filter(this::selected);
            }
            if (profile.sampleCount() == 0) {
                spec.commandLine().getErr().println("etw profile: no CPU samples"
                        + (processes.isEmpty() ? " in the trace (record with the kernel's profile flag)"
                        : " of the selected processes"));
            }
            write(profile, target.writer());
            target.commit();
            int code = warnings.report(spec.commandLine().getErr(), "profile", warningsOption.list);
            if (!processes.isEmpty() && profile.sampleCount() == 0 && allSamples > 0) {
                // the trace has samples but the selection took none: as dump's --provider, a distinct status, so a
                // script can tell a misspelt process from a process that did not run
                java.io.PrintWriter err = spec.commandLine().getErr();
                err.println("etw profile: no process matched --process " + String.join(",", processes) + " ("
                        + allSamples + " samples in other processes; a name matches case-insensitively, '.exe' "
                        + "optional, or give the PID)");
                err.flush();
                return EtwCommand.NO_MATCH;
            }
            return code;
        }
    }

    private void write(CpuProfile profile, Appendable out) throws IOException {
        if (format == Format.collapsed) {
            profile.writeCollapsed(out, perThread);
        } else {
            profile.writeSpeedscope(out, files.size() == 1 ? files.get(0).getFileName().toString()
                    : files.size() + " files");
        }
    }

    private boolean selected(CpuProfile.StackCount s) {
        String name = s.process() == null ? "" : s.process().process().name();
        for (String p : processes) {
            if (p.equals(Integer.toString(s.processId())) || p.equalsIgnoreCase(name)
                    || p.equalsIgnoreCase(name + ".exe")) {
                return true;
            }
        }
        return false;
    }
}
