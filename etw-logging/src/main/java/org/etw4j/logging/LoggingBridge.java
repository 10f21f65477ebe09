package org.etw4j.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.etw4j.Guid;
import org.etw4j.Win32Error;
import org.etw4j.provider.EtwProvider;
import org.etw4j.provider.EventWriter;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * Turns log records into TraceLogging events of one provider, in the shape of .NET's Microsoft-Extensions-Logging
 * events: what the three bridges (etw-logback, etw-log4j2, etw-jul) share.
 *
 * <p>Thread-safe: one instance per appender/handler, called from every logging thread. {@link #isEnabled} reads the
 * provider's published enable state (no lock, no allocation): bridges call it first and return when it is false, so
 * a record nobody listens to costs one volatile read. {@link #log} asks again per kind of content and formats only
 * what a session wants. It never throws and never blocks: ETW refusals and the bridge's own errors are counted
 * ({@link #statistics()}) and told to the {@link FailureReporter} at the 1st, 10th, 100th, ... occurrence, so a
 * failing bridge cannot flood the framework's status log. {@link #close()} unregisters the provider; idempotent.
 *
 * @param <R> the framework's record type
 */
public final class LoggingBridge<R> implements AutoCloseable {
    /** Longest FormattedMessage and VerboseMessage written, in chars (UTF-16: twice in bytes; ETW events are &lt; 64 KB). */
    public static final int MAX_TEXT_CHARS = 12_000;
    /** Longest argument or context value written, in chars. */
    public static final int MAX_VALUE_CHARS = 2_000;
    /** Key of the message template among the arguments, last as in .NET's FormattedLogValues. */
    public static final String ORIGINAL_FORMAT = "{OriginalFormat}";

    private static final AtomicInteger FACTORY_IDS = new AtomicInteger();

    private final EtwProvider provider;
    private final LogRecordAccess<R> access;
    private final FailureReporter reporter;
    private final int factoryId;
    private final EventShapes shapes = new EventShapes();
    private final LongAdder written = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder truncated = new LongAdder();

    private LoggingBridge(EtwProvider provider, LogRecordAccess<R> access, FailureReporter reporter) {
        this.provider = provider;
        this.access = access;
        this.reporter = reporter;
        this.factoryId = FACTORY_IDS.incrementAndGet();
    }

    /**
     * Registers the provider {@code providerName} (GUID derived from the name, or {@code providerGuid} when not
     * blank) on the default backend and returns a bridge writing to it.
     *
     * @throws IllegalArgumentException if the name is missing or the GUID text is malformed (configuration errors,
     *                                  reported by the bridges at start-up, never while logging)
     */
    public static <R> LoggingBridge<R> open(String providerName, String providerGuid, LogRecordAccess<R> access,
                                            FailureReporter reporter) {
        if (providerName == null || providerName.isBlank()) {
            throw new IllegalArgumentException("providerName is required (the ETW provider the log records go to, "
                    + "e.g. MyCompany-MyService-Logging)");
        }
        EtwProvider.Builder b = EtwProvider.builder(providerName.trim());
        if (providerGuid != null && !providerGuid.isBlank()) {
            b.guid(Guid.parse(providerGuid.trim()));
        }
        return over(b.register(), access, reporter);
    }

    /** A bridge writing to a provider the caller registered (and closes: {@link #close()} closes it too). */
    public static <R> LoggingBridge<R> over(EtwProvider provider, LogRecordAccess<R> access, FailureReporter reporter) {
        return new LoggingBridge<>(provider, access, reporter);
    }

    /** The provider the events go to. */
    public EtwProvider provider() {
        return provider;
    }

    /** The value of the {@code FactoryID} field: a number per bridge instance in this process (from 1). */
    public int factoryId() {
        return factoryId;
    }

    /** Whether any session enables the provider at all: the first, cheapest check (one volatile read). */
    public boolean isEnabled() {
        return provider.isEnabled();
    }

    /** Whether some session wants records of {@code level} (any of the keywords a bridge writes). */
    public boolean isEnabled(LogLevel level) {
        return provider.isEnabled(level.etwLevel().value(), LoggingKeywords.ALL_WRITTEN);
    }

    /**
     * Writes {@code record} as one event carrying what the sessions ask for. Never throws: a failure, including a
     * {@link StackOverflowError} from an argument whose {@code toString()} recurses forever (issue 22, item 9), is a
     * failed write, counted and reported. The overflow is caught here, where the stack has unwound to the logging
     * call's depth, so reporting it is safe; other {@link VirtualMachineError}s (out of memory) are not contained.
     */
    public void log(LogLevel level, R record) {
        try {
            write(level, record);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            errors.increment();
            report(errors, "could not turn a log record into an ETW event", e);
        }
    }

    private void write(LogLevel level, R record) {
        int etwLevel = level.etwLevel().value();
        long parts = 0;
        if (provider.isEnabled(etwLevel, LoggingKeywords.FORMATTED_MESSAGE)) {
            parts |= LoggingKeywords.FORMATTED_MESSAGE;
        }
        if (provider.isEnabled(etwLevel, LoggingKeywords.MESSAGE)) {
            parts |= LoggingKeywords.MESSAGE;
        }
        Throwable thrown = provider.isEnabled(etwLevel, LoggingKeywords.EXCEPTION) ? access.throwable(record) : null;
        if (thrown != null) {
            parts |= LoggingKeywords.EXCEPTION;
        }
        Map<String, String> context = provider.isEnabled(etwLevel, LoggingKeywords.CONTEXT) ? access.context(record) : null;
        if (context != null && !context.isEmpty()) {
            parts |= LoggingKeywords.CONTEXT;
        } else {
            context = null;
        }
        if (parts == 0) {
            return; // the sessions want only content this record does not have (an exception, context)
        }
        // Every string is made before the writer is taken: a toString() that logs again (re-entrant) then takes
        // the thread's writer for its own event and is done with it before ours begins.
        String loggerName = nonNull(access.loggerName(record));
        String eventName = nonNull(access.eventName(record));
        String text = (parts & LoggingKeywords.FORMATTED_MESSAGE) != 0 ? clip(access.formattedMessage(record), MAX_TEXT_CHARS) : null;
        String stack = thrown != null ? clip(stackTrace(thrown), MAX_TEXT_CHARS) : null;
        String thrownMessage = thrown != null ? clip(thrown.getMessage(), MAX_VALUE_CHARS) : null;
        List<String> arguments = (parts & LoggingKeywords.MESSAGE) != 0 ? arguments(record) : null;
        List<String> contextNames = List.of();
        List<String> contextValues = List.of();
        if (context != null) {
            contextNames = new ArrayList<>();
            contextValues = new ArrayList<>();
            for (Map.Entry<String, String> e : new TreeMap<>(context).entrySet()) {
                if (contextNames.size() == EventShapes.MAX_CONTEXT_FIELDS) {
                    truncated.increment(); // the rest of a very large MDC is left out, counted
                    break;
                }
                contextNames.add(EventShapes.contextFieldName(e.getKey()));
                contextValues.add(clip(e.getValue(), MAX_VALUE_CHARS));
            }
        }
        String threadName = nonNull(access.threadName(record));

        TraceLoggingEvent shape = shapes.get(level, parts, contextNames);
        EventWriter w = provider.event(shape);
        if (!w.isEnabled()) {
            return; // the last session went away meanwhile
        }
        w.int32(level.dotnetValue()).int32(factoryId).string(loggerName).int32(0).string(eventName);
        if (text != null) {
            w.string(text);
        }
        if (stack != null) {
            w.string(thrown.getClass().getName()).string(thrownMessage).int32(0).string(stack);
        }
        if (arguments != null) {
            w.count(arguments.size() / 2);
            for (String s : arguments) {
                w.string(s);
            }
        }
        w.string(threadName);
        for (String v : contextValues) {
            w.string(v);
        }
        int status = w.write();
        if (status == 0) {
            written.increment();
        } else {
            failed.increment();
            report(failed, "ETW refused a log event: " + Win32Error.describe(status)
                    + " (the provider's statistics() count them by status)", null);
        }
    }

    /** Keys and values alternating: the record's arguments, then {@code {OriginalFormat}} when there is one. */
    private List<String> arguments(R record) {
        List<String> kv = new ArrayList<>();
        access.arguments(record, (k, v) -> {
            kv.add(nonNull(k));
            kv.add(clip(valueText(v), MAX_VALUE_CHARS));
        });
        String format = access.messageFormat(record);
        if (format != null) {
            kv.add(ORIGINAL_FORMAT);
            kv.add(clip(format, MAX_TEXT_CHARS));
        }
        return kv;
    }

    private static String valueText(Object v) {
        if (v instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        return String.valueOf(v);
    }

    /** The throwable as {@code printStackTrace} prints it (causes and suppressed included), like .NET's ToString(). */
    static String stackTrace(Throwable t) {
        StringWriter sw = new StringWriter(1024);
        try (PrintWriter pw = new PrintWriter(sw)) {
            t.printStackTrace(pw);
        }
        String s = sw.toString();
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
            end--;
        }
        return s.substring(0, end);
    }

    private String clip(String s, int max) {
        if (s == null) {
            return "";
        }
        if (s.length() <= max) {
            return s;
        }
        truncated.increment();
        String tail = "... [" + (s.length() - max) + " more chars]";
        return s.substring(0, max - tail.length()) + tail;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    /** Tells the reporter at the 1st, 10th, 100th ... occurrence of a kind of failure, with the total so far. */
    private void report(LongAdder counter, String what, Throwable cause) {
        long n = counter.sum();
        if (!isPowerOfTen(n)) {
            return;
        }
        try {
            reporter.report("etw4j bridge to provider " + provider.name() + ": " + what + " (" + n
                    + (n == 1 ? " time" : " times") + " so far; reported at 1, 10, 100, ...)", cause);
        } catch (RuntimeException ignored) {
            // the framework's own error path failed; nothing else may be done from inside a log call
        }
    }

    private static boolean isPowerOfTen(long n) {
        if (n <= 0) {
            return false;
        }
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }

    /** Counters since this bridge was opened. */
    public BridgeStatistics statistics() {
        return new BridgeStatistics(written.sum(), failed.sum(), errors.sum(), truncated.sum());
    }

    /** Shapes (TraceLogging definitions) built and kept so far. */
    public int shapeCount() {
        return shapes.size();
    }

    /** Unregisters the provider; idempotent. */
    @Override
    public void close() {
        provider.close();
    }

    @Override
    public String toString() {
        return "LoggingBridge[" + provider.name() + " " + provider.id() + ", FactoryID " + factoryId + ", " + statistics() + "]";
    }
}
