package org.etw4j.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code etw} command: the entry point of the {@code ./etw} launcher and its subcommands.
 *
 * <p>Not instantiated by users. {@link #execute(PrintWriter, PrintWriter, String...)} runs one command line
 * and returns its exit code; it may be called repeatedly and from several threads (each call builds its own
 * picocli {@link CommandLine}). Exit codes: {@value #OK} success, {@value #FAILED} runtime failure (a one-line
 * message on stderr; set {@code ETW_DEBUG=1} for the stack trace), {@value #USAGE} bad command line.
 */
@Command(name = "etw",
        mixinStandardHelpOptions = true,
        versionProvider = Versions.class,
        description = "Event Tracing for Windows on the JVM: providers, sessions, .etl files.%n"
                + "Off Windows, sessions run on etw4j's simulated ETW (pure Java).",
        footer = {"", "Exit codes: 0 ok, 1 runtime error, 2 usage error.",
                  "Run 'etw COMMAND --help' for a command's options."})
public final class EtwCommand implements Runnable {
    /** Exit code: success. */
    public static final int OK = 0;
    /** Exit code: the command failed at run time. */
    public static final int FAILED = 1;
    /** Exit code: the command line was wrong. */
    public static final int USAGE = 2;

    /**
     * The subcommands, in the order {@code etw --help} lists them; adding one is one line here. Not in the
     * {@code @Command} annotation: picocli would build every subcommand's model by reflection at each start
     * (about 350 of its classes and every command's option types loaded), where a command line needs only the
     * one it names ({@link #commandLine(PrintWriter, PrintWriter, String...)}).
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            DemoCommand.class,
            GuidCommand.class,
            SummaryCommand.class,
            DumpCommand.class,
            ProfileCommand.class,
            TimelineCommand.class,
            ReportCommand.class,
            RecordCommand.class,
            LiveCommand.class,
            CommandLine.HelpCommand.class);

    /** Environment variable the launcher sets to 1 when stderr is a terminal (Java cannot tell by itself). */
    static final String STDERR_TTY_ENV = "ETW_STDERR_TTY";

    private static volatile boolean progressAllowed;
    private static volatile boolean progressAtEveryUpdate;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // "etw" alone: say what there is.
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and exits the JVM with its code. */
    public static void main(String[] args) {
        progressAllowed = stderrIsTerminal();
        // Straight to file descriptor 1 through one 64 KB buffer: System.out adds its own small buffer and lock, and
        // flushes each chunk. Auto-flush still flushes at each println (commands that print as they go); etw dump
        // writes its events as UTF-8 bytes to the stream under it (StdoutWriter.bytes) and flushes once at the end.
        PrintWriter out = new StdoutWriter(new FileOutputStream(FileDescriptor.out));
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        int code;
        try {
            code = execute(out, err, args);
        } catch (Throwable t) {
            // picocli hands on Errors (ServiceConfigurationError, OutOfMemoryError...): still one line and code 1
            err.println("etw: " + oneLine(t));
            if (System.getenv("ETW_DEBUG") != null) {
                t.printStackTrace(err);
            }
            code = FAILED;
        }
        out.flush();
        err.flush();
        System.exit(code);
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
     * that subcommand's model is built; for anything else (no arguments, an option, {@code help}, a name that is
     * not a subcommand, whose error message suggests the near ones) all of them are.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, String... args) {
        String first = args == null || args.length == 0 ? null : args[0];
        CommandLine cl = new CommandLine(new EtwCommand());
        Class<?> only = null;
        for (Class<?> c : SUBCOMMANDS) {
            if (c != CommandLine.HelpCommand.class && names(c).contains(first)) {
                only = c;
            }
        }
        for (Class<?> c : SUBCOMMANDS) {
            if (only == null || c == only) {
                cl.addSubcommand(c);
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter e = commandLine.getErr();
            if (ex instanceof CommandLine.ParameterException) {
                // a usage problem found while running (normally routed to the handler below by picocli)
                e.println(commandLine.getCommandName() + ": " + ex.getMessage());
                e.flush();
                return USAGE;
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

    /** A subcommand's name and aliases, read from its annotation (no picocli model built). */
    private static List<String> names(Class<?> command) {
        Command c = command.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(c.aliases()));
        names.add(c.name());
        return names;
    }

    /** A failure as one line: the message, or the exception type when there is none. */
    static String oneLine(Throwable t) {
        Throwable cause = t;
        // Wrappers without a message of their own: report what they wrap.
        while ((cause.getMessage() == null || cause.getMessage().isBlank()) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String m = cause.getMessage();
        String text = m == null || m.isBlank() ? cause.getClass().getSimpleName() : m;
        if (cause instanceof InternalError && m != null && m.contains("unsafe memory access")) {
            // A mapped file truncated by another process faults (SIGBUS on Linux, EXCEPTION_IN_PAGE_ERROR on
            // Windows) and the JVM reports the fault as this InternalError at the read (FileChannel.map Javadoc:
            // behaviour is unspecified when the file shrinks).
            text = "the file changed while being read (truncated by another process?): " + m;
        } else if (cause instanceof java.nio.file.NoSuchFileException) {
            text = "no such file: " + m;
        } else if (cause instanceof java.nio.file.AccessDeniedException) {
            text = "access denied: " + m;
        } else if (!(cause instanceof CliException) && !(cause instanceof java.io.IOException)
                && !(cause instanceof org.etw4j.EtwException) && !(cause instanceof IllegalArgumentException)
                && !(cause instanceof IllegalStateException)) {
            text = cause.getClass().getSimpleName() + ": " + text;
        }
        return text.replace('\n', ' ').replace('\r', ' ');
    }
}
