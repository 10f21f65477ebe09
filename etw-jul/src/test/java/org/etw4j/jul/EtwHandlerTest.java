package org.etw4j.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.ErrorManager;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.etw4j.consumer.EventRecord;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LoggingKeywords;
import org.etw4j.logging.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The JUL handler configured from a logging.properties file, read back through a session and an EventStream. */
class EtwHandlerTest {
    private static final String PROVIDER = "etw4j-Test-Jul";

    private Logger configure(String resource) throws Exception {
        try (InputStream in = EtwHandlerTest.class.getResourceAsStream(resource)) {
            LogManager.getLogManager().readConfiguration(in);
        }
        return Logger.getLogger("com.example.Orders");
    }

    private static EtwHandler handler() {
        for (Handler h : Logger.getLogger("").getHandlers()) {
            if (h instanceof EtwHandler e) {
                return e;
            }
        }
        throw new AssertionError("no EtwHandler on the root logger");
    }

    @AfterEach
    void reset() {
        LogManager.getLogManager().reset(); // closes the handler: unregisters the provider
    }

    @Test
    void everyLevelWithArgumentsAndException() throws Exception {
        Logger log = configure("/logging-etw.properties");
        IllegalStateException boom = new IllegalStateException("stock service down");
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start(PROVIDER, org.etw4j.Level.VERBOSE, -1L)) {
            log.log(Level.FINEST, "finest {0}", 1);
            log.log(Level.FINER, "finer {0}", 2);
            log.log(Level.FINE, "fine {0} {1}", new Object[] {3, "three"});
            log.log(Level.CONFIG, "config {0}", 4);
            log.log(Level.INFO, "order {0} placed", 1001);
            log.log(Level.WARNING, "warning {0}", 6);
            log.log(Level.SEVERE, "order 1002 failed", boom);
            events = cap.stop();
        }
        String[] texts = {"finest 1", "finer 2", "fine 3 three", "config 4",
            MessageFormat.format("order {0} placed", 1001), // JUL's own formatting: "1,001" in English locales
            "warning 6", "order 1002 failed"};
        int[] dotnetLevels = {0, 0, 1, 2, 2, 3, 4};
        int[] etwLevels = {5, 5, 5, 4, 4, 3, 2};
        String[] eventNames = {"", "", "", "", "", "", ""};
        LogCapture.assertFormattedMessages(events, PROVIDER, "com.example.Orders", handler().factoryId(), texts,
                dotnetLevels, etwLevels, eventNames, Thread.currentThread().getName());
        long parts = LoggingKeywords.FORMATTED_MESSAGE | LoggingKeywords.MESSAGE;
        for (int i = 0; i < 6; i++) {
            assertEquals(parts, events.get(i).keyword(), "JUL has no context");
            assertEquals(LogCapture.formattedMessageFields("Arguments", "ThreadName"), LogCapture.fieldNames(events.get(i)));
        }
        assertEquals(List.of("0", "3", "1", "three", "{OriginalFormat}", "fine {0} {1}"), LogCapture.arguments(events.get(2)));
        assertEquals(List.of("0", "1001", "{OriginalFormat}", "order {0} placed"), LogCapture.arguments(events.get(4)),
                "arguments as String.valueOf, the formatted text as MessageFormat does");

        EventRecord error = events.get(6);
        assertEquals(parts | LoggingKeywords.EXCEPTION, error.keyword());
        assertEquals(LogCapture.formattedMessageFields("Exception", "Arguments", "ThreadName"), LogCapture.fieldNames(error));
        LogCapture.assertException(error, boom, "java.lang.IllegalStateException: stock service down\n\tat org.etw4j.jul."
                + "EtwHandlerTest.everyLevelWithArgumentsAndException(EtwHandlerTest.java:");
        assertEquals(List.of("{OriginalFormat}", "order 1002 failed"), LogCapture.arguments(error));
        assertEquals(new BridgeStatistics(7, 0, 0, 0), handler().statistics());
    }

    @Test
    void aWarningSessionReceivesNoInfo() throws Exception {
        Logger log = configure("/logging-etw.properties");
        LogCapture.assertWarningSessionGetsNoInfo(PROVIDER, () -> {
            for (int i = 0; i < 50; i++) {
                log.log(Level.INFO, "info {0}", i);
                log.log(Level.CONFIG, "config {0}", i);
                log.log(Level.FINE, "fine {0}", i);
            }
        }, () -> {
            log.warning("the only warning");
            log.severe("the only error");
        });
    }

    @Test
    void eightThreadsLoseNothingTheSessionDoesNotCount() throws Exception {
        Logger log = configure("/logging-etw.properties");
        EtwHandler handler = handler();
        LogCapture.assertConcurrentLoggingAccounted(PROVIDER, 8, 1_000,
                (t, i) -> log.log(Level.INFO, "thread {0} record {1}", new Object[] {Integer.toString(t), Integer.toString(i)}),
                handler::statistics);
    }

    @Test
    void theCurrentActivityIdIsOnTheEvent() throws Exception {
        Logger log = configure("/logging-etw.properties");
        LogCapture.assertActivityIdCarried(PROVIDER, log::info);
    }

    @Test
    void noSessionNoEventNoFormatting() throws Exception {
        Logger log = configure("/logging-etw.properties");
        log.log(Level.SEVERE, "{0}", LogCapture.NEVER_FORMATTED);
        assertEquals(new BridgeStatistics(0, 0, 0, 0), handler().statistics());
    }

    @Test
    void guidAndLevelFromTheProperties() throws Exception {
        Logger log = configure("/logging-etw-guid.properties");
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start("3e1f0a9b-7c6d-4b5a-8e2f-1d0c9b8a7f65", org.etw4j.Level.VERBOSE, -1L)) {
            log.info("below the handler's level");
            log.warning("by guid");
            events = cap.stop();
        }
        assertEquals(1, events.size());
        assertEquals("by guid", events.get(0).getString("FormattedMessage"));
        assertEquals("etw4j-Test-Jul-Guid", events.get(0).providerName(), "the name still travels in the traits");
    }

    @Test
    void aMissingProviderNameIsAnOpenFailureAndLoggingGoesOn() throws Exception {
        List<String> reported = new ArrayList<>();
        EtwHandler h = new EtwHandler(null) {
            @Override
            protected void reportError(String msg, Exception ex, int code) {
                reported.add(code + " " + msg); // called from the constructor: a captured local, not a field
            }
        };
        assertEquals(1, reported.size(), reported.toString());
        assertTrue(reported.get(0).startsWith(ErrorManager.OPEN_FAILURE + " EtwHandler not opened: providerName is required"),
                reported.get(0));
        h.publish(new java.util.logging.LogRecord(Level.SEVERE, "ignored")); // must not throw
        assertEquals(new BridgeStatistics(0, 0, 0, 0), h.statistics());
        Logger log = configure("/logging-etw-missing-name.properties");
        log.severe("logging still works");
        assertEquals(0, handler().factoryId(), "the handler from the file did not open either");
    }

    @Test
    void failuresGoToTheErrorManager() throws Exception {
        Logger log = configure("/logging-etw.properties");
        List<String> messages = new ArrayList<>();
        List<Integer> codes = new ArrayList<>();
        handler().setErrorManager(recording(messages, codes));
        try (LogCapture cap = LogCapture.start(PROVIDER, org.etw4j.Level.VERBOSE, LoggingKeywords.MESSAGE)) {
            log.log(Level.INFO, "value {0}", LogCapture.THROWING_TO_STRING); // only the arguments are asked for
            cap.stop();
        }
        assertEquals(1, handler().statistics().errors());
        assertEquals(1, messages.size(), messages.toString());
        assertTrue(messages.get(0).contains("could not turn a log record into an ETW event (1 time so far"), messages.get(0));
        assertEquals(List.of(ErrorManager.WRITE_FAILURE), codes);
    }

    @Test
    void anArgumentWhoseToStringRecursesForeverIsAFailedWrite() throws Exception {
        // ../shared/hardening/repro_bridge_stackoverflow.sh: the StackOverflowError escaped log() before the fix.
        Logger log = configure("/logging-etw.properties");
        List<String> messages = new ArrayList<>();
        List<Integer> codes = new ArrayList<>();
        handler().setErrorManager(recording(messages, codes));
        try (LogCapture cap = LogCapture.start(PROVIDER, org.etw4j.Level.VERBOSE, LoggingKeywords.MESSAGE)) {
            org.junit.jupiter.api.Assertions.assertDoesNotThrow(
                    () -> log.log(Level.INFO, "value {0}", LogCapture.RECURSING_TO_STRING));
            cap.stop();
        }
        assertEquals(1, handler().statistics().errors());
        assertEquals(List.of(ErrorManager.WRITE_FAILURE), codes);
    }

    private static ErrorManager recording(List<String> messages, List<Integer> codes) {
        return new ErrorManager() {
            @Override
            public synchronized void error(String msg, Exception ex, int code) {
                messages.add(msg);
                codes.add(code);
            }
        };
    }
}
