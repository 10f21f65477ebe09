package org.etw4j.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.MarkerManager;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.ErrorHandler;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.logging.BridgeStatistics;
import org.etw4j.logging.LoggingKeywords;
import org.etw4j.logging.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Log4j2 appender plugin configured from log4j2 XML, read back through a session and an EventStream. */
class EtwAppenderTest {
    private static final String PROVIDER = "etw4j-Test-Log4j2";

    private LoggerContext context;

    private Logger configure(String resource) throws Exception {
        context = Configurator.initialize("etw-test-" + resource, EtwAppenderTest.class.getClassLoader(),
                EtwAppenderTest.class.getResource(resource).toURI());
        return context.getLogger("com.example.Orders");
    }

    private EtwAppender appender() {
        return context.getConfiguration().getAppender("ETW");
    }

    @AfterEach
    void stopContext() {
        if (context != null) {
            Configurator.shutdown(context); // stops the appender: unregisters the provider
        }
        ThreadContext.clearAll();
    }

    @Test
    void thePluginIsFoundThroughTheGeneratedIndex() {
        assertTrue(EtwAppenderTest.class.getResource(
                "/META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat") != null,
                "log4j-core's annotation processor wrote the plugin index");
    }

    @Test
    void everyLevelWithThreadContextMarkerArgumentsAndException() throws Exception {
        Logger log = configure("/log4j2-etw.xml");
        IllegalStateException boom = new IllegalStateException("stock service down");
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start(PROVIDER, Level.VERBOSE, -1L)) {
            ThreadContext.put("requestId", "r-42");
            ThreadContext.put("user", "ann");
            log.trace("trace {}", 1);
            log.debug("debug {} {}", 2, "two");
            log.info(MarkerManager.getMarker("AUDIT"), "order {} placed", 1001);
            log.warn("warn {}", 4);
            log.error("order {} failed", 1002, boom);
            ThreadContext.clearAll();
            log.fatal("fatal {}", 6);
            events = cap.stop();
        }
        int factory = appender().factoryId();
        String[] texts = {"trace 1", "debug 2 two", "order 1001 placed", "warn 4", "order 1002 failed", "fatal 6"};
        int[] dotnetLevels = {0, 1, 2, 3, 4, 5};
        int[] etwLevels = {5, 5, 4, 3, 2, 1};
        String[] eventNames = {"", "", "AUDIT", "", "", ""};
        LogCapture.assertFormattedMessages(events, PROVIDER, "com.example.Orders", factory, texts, dotnetLevels, etwLevels,
                eventNames, Thread.currentThread().getName());
        long full = LoggingKeywords.FORMATTED_MESSAGE | LoggingKeywords.MESSAGE | LoggingKeywords.CONTEXT;
        for (int i : new int[] {0, 1, 2, 3}) {
            assertEquals(full, events.get(i).keyword());
            assertEquals(LogCapture.formattedMessageFields("Arguments", "ThreadName", "requestId", "user"),
                    LogCapture.fieldNames(events.get(i)));
            assertEquals("r-42", events.get(i).getString("requestId"));
            assertEquals("ann", events.get(i).getString("user"));
        }
        assertEquals(List.of("0", "2", "1", "two", "{OriginalFormat}", "debug {} {}"), LogCapture.arguments(events.get(1)));

        EventRecord error = events.get(4);
        assertEquals(full | LoggingKeywords.EXCEPTION, error.keyword());
        assertEquals(LogCapture.formattedMessageFields("Exception", "Arguments", "ThreadName", "requestId", "user"),
                LogCapture.fieldNames(error));
        LogCapture.assertException(error, boom, "java.lang.IllegalStateException: stock service down\n\tat org.etw4j.log4j2."
                + "EtwAppenderTest.everyLevelWithThreadContextMarkerArgumentsAndException(EtwAppenderTest.java:");
        assertEquals(List.of("0", "1002", "{OriginalFormat}", "order {} failed"), LogCapture.arguments(error),
                "the throwable is not an argument");

        EventRecord fatal = events.get(5);
        assertEquals(LoggingKeywords.FORMATTED_MESSAGE | LoggingKeywords.MESSAGE, fatal.keyword(), "no context left");
        assertEquals(LogCapture.formattedMessageFields("Arguments", "ThreadName"), LogCapture.fieldNames(fatal));
        assertEquals(new BridgeStatistics(6, 0, 0, 0), appender().statistics());
    }

    @Test
    void aWarningSessionReceivesNoInfo() throws Exception {
        Logger log = configure("/log4j2-etw.xml");
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
        Logger log = configure("/log4j2-etw.xml");
        LogCapture.assertConcurrentLoggingAccounted(PROVIDER, 8, 1_000, (t, i) -> {
            ThreadContext.put("worker", Integer.toString(t));
            log.info("thread {} record {}", t, i);
        }, () -> appender().statistics());
    }

    @Test
    void theCurrentActivityIdIsOnTheEvent() throws Exception {
        Logger log = configure("/log4j2-etw.xml");
        LogCapture.assertActivityIdCarried(PROVIDER, (String m) -> log.info(m));
    }

    @Test
    void noSessionNoEventNoFormatting() throws Exception {
        Logger log = configure("/log4j2-etw.xml");
        log.error("{}", LogCapture.NEVER_FORMATTED);
        assertEquals(new BridgeStatistics(0, 0, 0, 0), appender().statistics());
    }

    @Test
    void anExplicitGuidFromTheConfiguration() throws Exception {
        configure("/log4j2-etw-guid.xml");
        List<EventRecord> events;
        try (LogCapture cap = LogCapture.start("0d9a5c3e-2b7f-4e61-8a94-3c2b1a0f9e87", Level.VERBOSE, -1L)) {
            context.getLogger("x").info("by guid");
            events = cap.stop();
        }
        assertEquals(1, events.size());
        assertEquals("etw4j-Test-Log4j2-Guid", events.get(0).providerName(), "the name still travels in the traits");
    }

    @Test
    void aMissingProviderNameLeavesNoAppenderAndLoggingGoesOn() {
        EtwAppender built = EtwAppender.newBuilder().setName("ETW").build();
        assertNull(built, "the builder refuses (and says why on the StatusLogger)");
    }

    @Test
    void failuresGoToTheErrorHandler() throws Exception {
        Logger log = configure("/log4j2-etw.xml");
        List<String> messages = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        appender().setHandler(new ErrorHandler() {
            @Override
            public void error(String msg) {
                messages.add(msg);
            }

            @Override
            public void error(String msg, Throwable t) {
                error(msg, null, t);
            }

            @Override
            public void error(String msg, LogEvent event, Throwable t) {
                messages.add(msg);
                causes.add(t);
            }
        });
        try (LogCapture cap = LogCapture.start(PROVIDER, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
            log.info("value {}", LogCapture.THROWING_TO_STRING); // only the arguments are asked for
            cap.stop();
        }
        assertEquals(1, appender().statistics().errors());
        assertEquals(1, messages.size(), messages.toString());
        assertTrue(messages.get(0).contains("could not turn a log record into an ETW event (1 time so far"), messages.get(0));
        assertEquals("bad toString", causes.get(0).getMessage());
    }
}
