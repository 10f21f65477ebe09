package org.etw4j.bench;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.ParameterizedMessage;
import org.etw4j.jul.EtwHandler;
import org.etw4j.logback.EtwAppender;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The logging bridges when no session listens, against each framework's own disabled path in the same run.
 *
 * <ul>
 *   <li>{@code *LevelOff}: the framework's logger at level OFF (our appender/handler attached): the framework's own
 *       cheapest "nobody wants this" path, the peer;</li>
 *   <li>{@code *AppenderNoSession} / {@code julHandlerNoSession}: our appender/handler handed a ready record, no
 *       session: the bridge's own cost (claims 0 B/op: AllocationGate);</li>
 *   <li>{@code logbackNopAppender}: Logback's own appender machinery ({@code UnsynchronizedAppenderBase.doAppend}:
 *       re-entrance guard, started check, filter chain) around an {@code append} that does nothing: the part of
 *       {@code logbackAppenderNoSession} that is Logback's, a second peer;</li>
 *   <li>{@code *LoggerNoSession}: a whole {@code logger.info(...)} call at an enabled level whose only appender is
 *       ours, no session: what the framework spends before it reaches the appender (Logback and JUL build a record
 *       object) plus ours.</li>
 * </ul>
 * The message is "order {} placed" with one pre-boxed argument (no boxing in the measured call). Providers are
 * registered on the default backend (the simulated one off Windows); no session enables them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class LoggingBridgeBenchmark {
    private final Object orderId = 1001; // boxed once

    private LoggerContext logback;
    private EtwAppender logbackAppender;
    private UnsynchronizedAppenderBase<ILoggingEvent> logbackNop;
    private org.slf4j.Logger logbackOff;
    private org.slf4j.Logger logbackOn;
    private LoggingEvent logbackEvent;

    private org.apache.logging.log4j.core.LoggerContext log4j;
    private org.etw4j.log4j2.EtwAppender log4jAppender;
    private org.apache.logging.log4j.Logger log4jOff;
    private org.apache.logging.log4j.Logger log4jOn;
    private LogEvent log4jEvent;

    private EtwHandler julHandler;
    private java.util.logging.Logger julOff;
    private java.util.logging.Logger julOn;
    private LogRecord julRecord;

    @Setup
    public void setUp() {
        // Logback: the appender as logback.xml would make it, on an OFF logger and an INFO logger.
        logback = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
        logback.reset();
        logbackAppender = new EtwAppender();
        logbackAppender.setContext(logback);
        logbackAppender.setName("ETW");
        logbackAppender.setProviderName("etw4j-bench-logback");
        logbackAppender.start();
        logbackNop = new UnsynchronizedAppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                // nothing: measures what doAppend costs around an appender
            }
        };
        logbackNop.setContext(logback);
        logbackNop.setName("NOP");
        logbackNop.start();
        logbackOff = logbackLogger("bench.off", ch.qos.logback.classic.Level.OFF);
        logbackOn = logbackLogger("bench.on", ch.qos.logback.classic.Level.INFO);
        logbackEvent = new LoggingEvent(LoggingBridgeBenchmark.class.getName(), (ch.qos.logback.classic.Logger) logbackOn,
                ch.qos.logback.classic.Level.INFO, "order {} placed", null, new Object[] {orderId});

        // Log4j2: the appender built as the <Etw> element would build it (no plugin lookup: the shaded jar keeps
        // log4j-core's plugin index only).
        log4j = Configurator.initialize("etw4j-bench", null, (String) null);
        Configuration config = log4j.getConfiguration();
        log4jAppender = org.etw4j.log4j2.EtwAppender.newBuilder().setName("ETW").setProviderName("etw4j-bench-log4j2").build();
        log4jAppender.start();
        config.addAppender(log4jAppender);
        log4jOff = log4jLogger(config, "bench.off", org.apache.logging.log4j.Level.OFF);
        log4jOn = log4jLogger(config, "bench.on", org.apache.logging.log4j.Level.INFO);
        log4j.updateLoggers();
        log4jEvent = Log4jLogEvent.newBuilder().setLoggerName("bench.on").setLevel(org.apache.logging.log4j.Level.INFO)
                .setMessage(new ParameterizedMessage("order {} placed", orderId)).build();

        // JUL: the handler as logging.properties would make it.
        julHandler = new EtwHandler("etw4j-bench-jul");
        julOff = julLogger("bench.off", java.util.logging.Level.OFF);
        julOn = julLogger("bench.on", java.util.logging.Level.INFO);
        julRecord = new LogRecord(java.util.logging.Level.INFO, "order {0} placed");
        julRecord.setParameters(new Object[] {orderId});
        julRecord.setLoggerName("bench.on");
    }

    private org.slf4j.Logger logbackLogger(String name, ch.qos.logback.classic.Level level) {
        ch.qos.logback.classic.Logger l = logback.getLogger(name);
        l.setLevel(level);
        l.setAdditive(false);
        l.addAppender(logbackAppender);
        return l;
    }

    private org.apache.logging.log4j.Logger log4jLogger(Configuration config, String name, org.apache.logging.log4j.Level level) {
        LoggerConfig lc = new LoggerConfig(name, level, false);
        lc.addAppender(log4jAppender, null, null);
        config.addLogger(name, lc);
        return log4j.getLogger(name);
    }

    private java.util.logging.Logger julLogger(String name, java.util.logging.Level level) {
        java.util.logging.Logger l = java.util.logging.Logger.getLogger(name);
        l.setLevel(level);
        l.setUseParentHandlers(false);
        l.addHandler(julHandler);
        return l;
    }

    @TearDown
    public void tearDown() {
        logback.reset();
        Configurator.shutdown(log4j);
        julHandler.close();
    }

    @Benchmark
    public void logbackLevelOff() {
        logbackOff.info("order {} placed", orderId);
    }

    @Benchmark
    public void logbackAppenderNoSession() {
        logbackAppender.doAppend(logbackEvent);
    }

    @Benchmark
    public void logbackNopAppender() {
        logbackNop.doAppend(logbackEvent);
    }

    @Benchmark
    public void logbackLoggerNoSession() {
        logbackOn.info("order {} placed", orderId);
    }

    @Benchmark
    public void log4j2LevelOff() {
        log4jOff.info("order {} placed", orderId);
    }

    @Benchmark
    public void log4j2AppenderNoSession() {
        log4jAppender.append(log4jEvent);
    }

    @Benchmark
    public void log4j2LoggerNoSession() {
        log4jOn.info("order {} placed", orderId);
    }

    @Benchmark
    public void julLevelOff() {
        julOff.log(java.util.logging.Level.INFO, "order {0} placed", orderId);
    }

    @Benchmark
    public void julHandlerNoSession() {
        julHandler.publish(julRecord);
    }

    @Benchmark
    public void julLoggerNoSession() {
        julOn.log(java.util.logging.Level.INFO, "order {0} placed", orderId);
    }
}
