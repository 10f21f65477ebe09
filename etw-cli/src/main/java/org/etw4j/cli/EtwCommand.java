package org.etw4j.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code etw} command: the entry point of the {@code ./etw} launcher and its subcommands.
 *
 * <p>Not instantiated by users. {@link #execute(PrintWriter, PrintWriter, String...)} runs one command line
 * and returns its exit code; it may be called repeatedly and from several threads (each call builds its own
 * picocli {@link CommandLine}). Exit codes (docs/cli.md has the table): {@value #OK} success, {@value #FAILED}
 * failure (a one-line message on stderr; set {@code ETW_DEBUG=1} for the stack trace), {@value #USAGE} bad command
 * line (the message names the option), {@value #WARNINGS} completed with warnings (parts of a trace skipped),
 * {@value #NO_MATCH} a provider filter matched nothing.
 *
 * <p>The model of this top-level command is built in code ({@link #spec}), not read from annotations, like
 * {@link GuidCommand}'s: {@code etw --version} builds nothing else ({@link CommandSpecs} says why).
 */
public final class EtwCommand implements Callable<Integer> {
    /** Exit code: success. */
    public static final int OK = 0;
    /** Exit code: the command failed at run time. */
    public static final int FAILED = 1;
    /** Exit code: the command line was wrong. */
    public static final int USAGE = 2;
    /** Exit code: the command completed, but the reader stepped over unreadable parts of a trace (listed by --warnings). */
    public static final int WARNINGS = 3;
    /** Exit code: a filter the user gave (a provider) matched nothing. */
    public static final int NO_MATCH = 4;

    /** Environment variable the launcher sets to 1 when stderr is a terminal (Java cannot tell by itself). */
    static final String STDERR_TTY_ENV = "ETW_STDERR_TTY";

    private static volatile boolean progressAllowed;
    private static volatile boolean progressAtEveryUpdate;

    private CommandSpec spec;

    /** A new top-level command object and its picocli model: name, help and version options, help text. */
    private static CommandSpec spec() {
        EtwCommand c = new EtwCommand();
        CommandSpec spec = CommandSpec.wrapWithoutInspection(c).name("etw").versionProvider(new Versions());
        spec.usageMessage()
                .description("Event Tracing for Windows on the JVM: providers, sessions, .etl files.%n"
                        + "Off Windows, sessions run on etw4j's simulated ETW (pure Java).")
                .footer("", "Exit codes: 0 ok, 1 failure, 2 usage error, 3 completed with warnings (--warnings lists "
                        + "them),", "4 a provider filter matched nothing.",
                        "Run 'etw help COMMAND' or 'etw COMMAND --help' for a command's options.");
        CommandSpecs.standardHelpOptions(spec);
        c.spec = spec;
        return spec;
    }

    @Override
    public Integer call() {
        // "etw" alone: say what there is, as a usage error (a script that forgot the command should notice).
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** Runs the command line and exits the JVM with its code. */
    public static void main(String[] args) {
        progressAllowed = stderrIsTerminal();
        System.exit(run(new FileOutputStream(FileDescriptor.out), System.err, args));
    }

    /** Runs one command line on these standard streams, as {@link #main} does; returns the exit code. */
    static int run(OutputStream stdout, OutputStream stderr, String... args) {
        // Straight to file descriptor 1 through one 64 KB buffer: System.out adds its own small buffer and lock, and
        // flushes each chunk. Auto-flush still flushes at each println (commands that print as they go); etw dump
        // writes its events as UTF-8 bytes to the stream under it (StdoutWriter.bytes) and flushes once at the end.
        // A write error on stdout (full disk, closed pipe) ends the command at once: CheckedOutput.
        CheckedOutput checked = new CheckedOutput(stdout);
        PrintWriter out = new StdoutWriter(checked);
        PrintWriter err = new PrintWriter(stderr, true, StandardCharsets.UTF_8);
        int code;
        try {
            code = execute(out, err, args);
        } catch (Throwable t) {
            // picocli hands on Errors (ServiceConfigurationError, OutOfMemoryError...): still one line and code 1
            if (!(t instanceof CheckedOutput.OutputFailure f && f.brokenPipe())) {
                err.println("etw: " + oneLine(t));
            }
            if (System.getenv("ETW_DEBUG") != null) {
                t.printStackTrace(err);
            }
            code = FAILED;
        }
        try {
            out.flush();
        } catch (CheckedOutput.OutputFailure e) {
            // recorded in checked, said below unless the command already failed on it
        }
        if (checked.failure() != null && code != FAILED) {
            CheckedOutput.OutputFailure f = new CheckedOutput.OutputFailure(checked.failure());
            if (!f.brokenPipe()) {
                err.println("etw: " + f.getMessage());
            }
            code = FAILED;
        }
        err.flush();
        return code;
    }

    /**
     * Whether long reads may draw a progress line on stderr: only when {@link #main} runs and stderr is a
     * terminal, never for {@link #execute} callers (tests, embedding), whose streams are their own.
     */
    static boolean progressAllowed() {
        return progressAllowed;
    }

    /**
     * For tests: lets {@link #execute} callers draw progress lines on their stderr (or not). When allowed this way,
     * the line is drawn at every update, without the half-second delay and the 200 ms ticks, so what a test sees
     * does not depend on how fast the machine reads the file (a CI run read the corpus trace in 0.8 s and drew
     * nothing).
     */
    static void progressAllowed(boolean allowed) {
        progressAtEveryUpdate = allowed;
        progressAllowed = allowed;
    }

    /** True when {@link #progressAllowed(boolean)} asked for a line drawn at every update (tests only). */
    static boolean progressAtEveryUpdate() {
        return progressAtEveryUpdate;
    }

    /**
     * The launcher tests stderr with {@code [ -t 2 ]} and says so in {@value #STDERR_TTY_ENV}; without the launcher,
     * a console attached to a terminal is the best guess Java has (it checks stdin and stdout, not stderr).
     */
    private static boolean stderrIsTerminal() {
        String env = System.getenv(STDERR_TTY_ENV);
        if (env != null) {
            return env.equals("1");
        }
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine(out, err, args);
        return cl.execute(args);
    }

    /** A configured command line with every subcommand (output streams, error handling, exit codes). */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, (String) null);
    }

    /**
     * A configured command line able to run {@code args}: when they start with a subcommand's name or alias, only
     * that subcommand's model is built; for {@code --version} alone none is; for anything else (no arguments,
     * another option, {@code help}, a name that is not a subcommand, whose error message suggests the near ones)
     * all of them are.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, String... args) {
        String first = args == null || args.length == 0 ? null : args[0];
        CommandLine cl = new CommandLine(spec());
        boolean versionOnly = args != null && args.length == 1 && ("--version".equals(first) || "-V".equals(first));
        Subcommands.Entry only = Subcommands.named(first);
        for (Subcommands.Entry e : Subcommands.ALL) {
            if (!versionOnly && (only == null || e == only)) {
                cl.addSubcommand(e.name(), e.command().get());
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // picocli prints a stack trace for what fails outside a command's call() (its help and version text): a
        // full stdout there is routed to the handler below like any command's failure.
        CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
        cl.setExecutionStrategy(parseResult -> {
            try {
                return runLast.execute(parseResult);
            } catch (CheckedOutput.OutputFailure f) {
                throw new CommandLine.ExecutionException(cl, f.getMessage(), f);
            }
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter e = commandLine.getErr();
            if (ex instanceof CommandLine.ParameterException || ex instanceof UsageException) {
                // a usage problem found while running (normally routed to the handler below by picocli)
                e.println(commandLine.getCommandName() + ": " + ex.getMessage());
                e.println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help' for more information.");
                e.flush();
                return USAGE;
            }
            if (ex instanceof CheckedOutput.OutputFailure f && f.brokenPipe()) {
                return FAILED; // the reader of the pipe left: nothing to tell it
            }
            e.println(commandLine.getCommandName() + ": " + oneLine(ex));
            if (System.getenv("ETW_DEBUG") != null) {
                ex.printStackTrace(e);
            }
            e.flush();
            return FAILED;
        });
        cl.setParameterExceptionHandler((ex, badArgs) -> {
            CommandLine c = ex.getCommandLine();
            PrintWriter e = c.getErr();
            e.println(c.getCommandName() + ": " + ex.getMessage());
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, e)) {
                e.println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            }
            e.flush();
            return USAGE;
        });
        return cl;
    }

    /**
     * A failure as one line the user can act on: the message, without Java class names (the stack trace is for
     * {@code ETW_DEBUG=1}).
     */
    static String oneLine(Throwable t) {
        Throwable cause = t;
        // Wrappers without a message of their own (or whose message is their cause's toString(), "pkg.Type: text"):
        // report what they wrap.
        while (cause.getCause() != null && (cause.getMessage() == null || cause.getMessage().isBlank()
                || cause.getMessage().equals(cause.getCause().toString()))) {
            cause = cause.getCause();
        }
        String m = cause.getMessage();
        String text;
        if (cause instanceof InternalError && m != null && m.contains("unsafe memory access")) {
            // A mapped file truncated by another process faults (SIGBUS on Linux, EXCEPTION_IN_PAGE_ERROR on
            // Windows) and the JVM reports the fault as this InternalError at the read (FileChannel.map Javadoc:
            // behaviour is unspecified when the file shrinks).
            text = "the file changed while being read (truncated by another process?): " + m;
        } else if (cause instanceof OutOfMemoryError) {
            text = "out of memory" + (m == null ? "" : " (" + m + ")")
                    + "; give the JVM more with ETW_JAVA_OPTS=-Xmx...";
        } else if (cause instanceof StackOverflowError) {
            text = "internal error (stack overflow); run with ETW_DEBUG=1 for the stack trace";
        } else if (cause instanceof java.nio.file.NoSuchFileException) {
            text = "no such file: " + m;
        } else if (cause instanceof java.nio.file.AccessDeniedException) {
            text = "permission denied: " + m;
        } else if (cause instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            text = f.getReason() + (f.getFile() == null ? "" : ": " + f.getFile());
        } else if (m == null || m.isBlank()) {
            text = "internal error; run with ETW_DEBUG=1 for the stack trace";
        } else {
            text = m;
        }
        return text.replace('\n', ' ').replace('\r', ' ');
    }
}
