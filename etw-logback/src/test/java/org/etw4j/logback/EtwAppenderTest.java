package org.etw4j.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import java.util.List;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LoggingKeywords;
import org.etw4j.logging.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.MarkerFactory;

/** The Logback appender configured from logback XML, read back through a session and an EventStream. */
class EtwAppenderTest {
    private static final String PROVIDER = "etw4j-Test-Logback";

    private LoggerContext context;

    private Logger configure(String resource) throws Exception {
        // The context SLF4J hands out (with its MDC adapter), reconfigured from the file as an application would.
        context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        context.getStatusManager().clear();
        JoranConfigurator c = new JoranConfigurator();
        c.setContext(context);
        c.doConfigure(EtwAppenderTest.class.getResource(resource));
        return context.getLogger("com.example.Orders");
    }

    private EtwAppender appender() {
        return (EtwAppender) context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("ETW");
    }

    @AfterEach
    void stopContext() {
        if (context != null) {
            context.reset(); // stops the appender: unregisters the provider
        }
        MDC.clear();
    }

    @Test
    void everyLevelWithMdcMarkerArgumentsAndException() throws Exception {
        Logger log = configure("/logback-etw.xml");
        IllegalStateException boom = new IllegalStateException("stock service down");
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start(PROVIDER, Level.VERBOSE, -1L)) {
            MDC.put("requestId", "r-42");
            MDC.put("user", "ann");
            log.trace("trace {}", 1);
            log.debug("debug {} {}", 2, "two");
            log.info(MarkerFactory.getMarker("AUDIT"), "order {} placed", 1001);
            log.warn("warn {}", 4);
            log.error("order {} failed", 1002, boom);
            MDC.clear();
            log.atInfo().setMessage("paid {}").addArgument(9.5).addKeyValue("currency", "EUR").log();
            events = cap.stop();
        }
        int factory = appender().factoryId();
        String[] texts = {"trace 1", "debug 2 two", "order 1001 placed", "warn 4", "order 1002 failed", "paid 9.5"};
        int[] dotnetLevels = {0, 1, 2, 3, 4, 2};
        int[] etwLevels = {5, 5, 4, 3, 2, 4};
        String[] eventNames = {"", "", "AUDIT", "", "", ""};
        LogCapture.assertFormattedMessages(events, PROVIDER, "com.example.Orders", factory, texts, dotnetLevels, etwLevels,
                eventNames, Thread.currentThread().getName());
        long full = LoggingKeywords.FORMATTED_MESSAGE | LoggingKeywords.MESSAGE | LoggingKeywords.CONTEXT;
        for (int i : new int[] {0, 1, 2, 3}) {
            assertEquals(full, events.get(i).keyword());
            assertEquals(LogCapture.formattedMessageFields("Arguments", "ThreadName", "requestId", "user"), LogCapture.fieldNames(events.get(i)));
            assertEquals("r-42", events.get(i).getString("requestId"));
            assertEquals("ann", events.get(i).getString("user"));
        }
        assertEquals(List.of("0", "2", "1", "two", "{OriginalFormat}", "debug {} {}"), LogCapture.arguments(events.get(1)));

        EventRecord error = events.get(4);
        assertEquals(full | LoggingKeywords.EXCEPTION, error.keyword());
        assertEquals(LogCapture.formattedMessageFields("Exception", "Arguments", "ThreadName", "requestId", "user"), LogCapture.fieldNames(error));
        LogCapture.assertException(error, boom, "java.lang.IllegalStateException: stock service down\n\tat org.etw4j.logback."
                + "EtwAppenderTest.everyLevelWithMdcMarkerArgumentsAndException(EtwAppenderTest.java:");
        assertEquals(List.of("0", "1002", "{OriginalFormat}", "order {} failed"), LogCapture.arguments(error),
                "the throwable is not an argument");

        EventRecord fluent = events.get(5);
        assertEquals(LoggingKeywords.FORMATTED_MESSAGE | LoggingKeywords.MESSAGE, fluent.keyword(), "no MDC left");
        assertEquals(LogCapture.formattedMessageFields("Arguments", "ThreadName"), LogCapture.fieldNames(fluent));
        assertEquals(List.of("0", "9.5", "currency", "EUR", "{OriginalFormat}", "paid {}"), LogCapture.arguments(fluent));
        assertEquals(new BridgeStatistics(6, 0, 0, 0), appender().statistics());
    }

    @Test
    void aWarningSessionReceivesNoInfo() throws Exception {
        Logger log = configure("/logback-etw.xml");
        LogCapture.assertWarningSessionGetsNoInfo(PROVIDER, () -> {
            for (int i = 0; i < 50; i++) {
                log.info("info {}", i);
                log.debug("debug {}", i);
            }
        }, () -> {
            log.warn("the only warning");
            log.error("the only error");
        });
    }

    @Test
    void eightThreadsLoseNothingTheSessionDoesNotCount() throws Exception {
        Logger log = configure("/logback-etw.xml");
        LogCapture.assertConcurrentLoggingAccounted(PROVIDER, 8, 1_000, (t, i) -> {
            MDC.put("worker", Integer.toString(t));
            log.info("thread {} record {}", t, i);
        }, () -> appender().statistics());
    }

    @Test
    void theCurrentActivityIdIsOnTheEvent() throws Exception {
        Logger log = configure("/logback-etw.xml");
        LogCapture.assertActivityIdCarried(PROVIDER, log::info);
    }

    @Test
    void noSessionNoEventNoFormatting() throws Exception {
        Logger log = configure("/logback-etw.xml");
        log.error("{}", LogCapture.NEVER_FORMATTED);
        assertEquals(new BridgeStatistics(0, 0, 0, 0), appender().statistics());
    }

    @Test
    void anExplicitGuidFromTheConfiguration() throws Exception {
        configure("/logback-etw-guid.xml");
        EtwAppender a = appender();
        assertTrue(a.isStarted());
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start("5f0ac3a8-6b4e-4f0c-9d3b-2a1e7c6d5b40", Level.VERBOSE, -1L)) {
            context.getLogger("x").info("by guid");
            events = cap.stop();
        }
        assertEquals(1, events.size());
        assertEquals("etw4j-Test-Logback-Guid", events.get(0).providerName(), "the name still travels in the traits");
    }

    @Test
    void aMissingProviderNameIsAStatusErrorAndLoggingGoesOn() throws Exception {
        Logger log = configure("/logback-etw-missing-name.xml");
        assertFalse(appender().isStarted());
        log.error("logging still works"); // must not throw
        List<Status> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR).toList();
        assertTrue(errors.stream().anyMatch(s -> s.getMessage().startsWith("EtwAppender [ETW] not started: providerName is required")),
                errors.toString());
    }

    @Test
    void failuresGoToTheStatusManager() throws Exception {
        Logger log = configure("/logback-etw.xml");
        try (LogCapture cap = LogCapture.start(PROVIDER, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
            log.info("value {}", LogCapture.THROWING_TO_STRING); // Logback's own formatting is not asked for: only the arguments are
            cap.stop();
        }
        assertEquals(1, appender().statistics().errors());
        List<Status> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR).toList();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).getMessage().contains("could not turn a log record into an ETW event (1 time so far"),
                errors.get(0).getMessage());
        assertEquals("bad toString", errors.get(0).getThrowable().getMessage());
    }

    @Test
    void anArgumentWhoseToStringRecursesForeverIsAFailedWrite() throws Exception {
        // ../shared/hardening/repro_bridge_stackoverflow.sh: the StackOverflowError escaped log.info() before the fix.
        Logger log = configure("/logback-etw.xml");
        try (LogCapture cap = LogCapture.start(PROVIDER, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
            org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> log.info("value {}", LogCapture.RECURSING_TO_STRING));
            cap.stop();
        }
        assertEquals(1, appender().statistics().errors());
        List<Status> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR).toList();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).getThrowable() instanceof StackOverflowError, errors.toString());
    }
}
