package org.etw4j.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.etw4j.Level;
import org.etw4j.consumer.EventRecord;
import org.etw4j.logging.testing.LogCapture;
import org.junit.jupiter.api.Test;

/** The framework-neutral core: parts chosen by keyword, field layout, clipping, failure accounting. */
class LoggingBridgeTest {

    /** A minimal log record, for a bridge over no framework. */
    record Rec(String logger, String text, String format, Object[] args, Throwable thrown, Map<String, String> mdc) {
    }

    static final class RecAccess implements LogRecordAccess<Rec> {
        int formatted;

        @Override
        public String loggerName(Rec r) {
            return r.logger();
        }

        @Override
        public String eventName(Rec r) {
            return "";
        }

        @Override
        public String formattedMessage(Rec r) {
            formatted++;
            return r.text();
        }

        @Override
        public String messageFormat(Rec r) {
            return r.format();
        }

        @Override
        public void arguments(Rec r, BiConsumer<String, Object> out) {
            LogRecordAccess.positional(r.args(), r.args() == null ? 0 : r.args().length, out);
        }

        @Override
        public Throwable throwable(Rec r) {
            return r.thrown();
        }

        @Override
        public String threadName(Rec r) {
            return "main-thread";
        }

        @Override
        public Map<String, String> context(Rec r) {
            return r.mdc();
        }
    }

    private static Rec rec(String text) {
        return new Rec("core.test", text, text, null, null, Map.of());
    }

    @Test
    void nothingIsFormattedWhenNoSessionListens() {
        RecAccess access = new RecAccess();
        List<String> reports = new ArrayList<>();
        try (LoggingBridge<Rec> bridge = LoggingBridge.open("etw4j-Test-Core-Off", null, access, (m, e) -> reports.add(m))) {
            assertFalse(bridge.isEnabled(LogLevel.CRITICAL));
            bridge.log(LogLevel.CRITICAL, rec("x"));
            assertEquals(0, access.formatted);
            assertEquals(new BridgeStatistics(0, 0, 0, 0), bridge.statistics());
            assertEquals(List.of(), reports);
        }
    }

    @Test
    void eachKeywordBringsItsPartAndOnlyIt() throws Exception {
        String provider = "etw4j-Test-Core-Parts";
        RecAccess access = new RecAccess();
        Map<String, String> mdc = new LinkedHashMap<>();
        mdc.put("user", "ann");
        mdc.put("Level", "clash");
        mdc.put("", "empty");
        IllegalStateException boom = new IllegalStateException("boom");
        Rec r = new Rec("core.test", "hello 7", "hello {}", new Object[] {7}, boom, mdc);
        try (LoggingBridge<Rec> bridge = LoggingBridge.open(provider, null, access, (m, e) -> { })) {
            List<EventRecord> events;
            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.EXCEPTION)) {
                bridge.log(LogLevel.ERROR, r);
                bridge.log(LogLevel.ERROR, rec("no exception: not wanted by an Exception-only session"));
                events = cap.stop();
            }
            assertEquals(0, access.formatted, "the exception-only session made nobody format the message");
            assertEquals(1, events.size());
            EventRecord e = events.get(0);
            assertEquals("Message", e.eventName());
            assertEquals(LoggingKeywords.EXCEPTION, e.keyword());
            assertEquals(List.of("Level", "FactoryID", "LoggerName", "EventId", "EventName", "Exception", "ThreadName"),
                    LogCapture.fieldNames(e));
            assertEquals("java.lang.IllegalStateException", e.getString("Exception.TypeName"));
            assertEquals("boom", e.getString("Exception.Message"));
            assertEquals(0, e.getInt("Exception.HResult"));
            assertEquals(LoggingBridge.stackTrace(boom), e.getString("Exception.VerboseMessage"));
            assertTrue(e.getString("Exception.VerboseMessage").startsWith("java.lang.IllegalStateException: boom\n\tat "));

            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.CONTEXT | LoggingKeywords.MESSAGE)) {
                bridge.log(LogLevel.DEBUG, r);
                events = cap.stop();
            }
            assertEquals(1, events.size());
            e = events.get(0);
            assertEquals("Message", e.eventName());
            assertEquals(LoggingKeywords.CONTEXT | LoggingKeywords.MESSAGE, e.keyword());
            assertEquals(Level.VERBOSE.value(), e.level());
            assertEquals(List.of("Level", "FactoryID", "LoggerName", "EventId", "EventName", "Arguments", "ThreadName",
                    "MDC_", "MDC_Level", "user"), LogCapture.fieldNames(e), "context keys sorted; clashes prefixed");
            assertEquals(1, e.getInt("Level"));
            assertEquals(bridge.factoryId(), e.getInt("FactoryID"));
            assertEquals(List.of("0", "7", "{OriginalFormat}", "hello {}"), LogCapture.arguments(e));
            assertEquals("empty", e.getString("MDC_"));
            assertEquals("clash", e.getString("MDC_Level"));
            assertEquals("ann", e.getString("user"));
            assertEquals(new BridgeStatistics(2, 0, 0, 0), bridge.statistics());
        }
    }

    @Test
    void longTextIsClippedAndCounted() throws Exception {
        String provider = "etw4j-Test-Core-Clip";
        String big = "x".repeat(LoggingBridge.MAX_TEXT_CHARS + 5);
        try (LoggingBridge<Rec> bridge = LoggingBridge.open(provider, null, new RecAccess(), (m, e) -> { })) {
            List<EventRecord> events;
            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.FORMATTED_MESSAGE)) {
                bridge.log(LogLevel.INFORMATION, new Rec("l", big, null, null, null, Map.of()));
                events = cap.stop();
            }
            String text = events.get(0).getString("FormattedMessage");
            assertEquals(LoggingBridge.MAX_TEXT_CHARS, text.length());
            assertTrue(text.endsWith("... [5 more chars]"), text.substring(text.length() - 30));
            assertEquals(new BridgeStatistics(1, 0, 0, 1), bridge.statistics());
        }
    }

    @Test
    void aThrowingArgumentIsCountedAndReportedNeverThrown() throws Exception {
        String provider = "etw4j-Test-Core-Throw";
        Object bad = new Object() {
            @Override
            public String toString() {
                throw new UnsupportedOperationException("toString fails");
            }
        };
        List<String> reports = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        try (LoggingBridge<Rec> bridge = LoggingBridge.open(provider, null, new RecAccess(), (m, e) -> {
            reports.add(m);
            causes.add(e);
        })) {
            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
                for (int i = 0; i < 12; i++) {
                    bridge.log(LogLevel.WARNING, new Rec("l", "t", "t {}", new Object[] {bad}, null, Map.of()));
                }
                assertEquals(List.of(), cap.stop());
            }
            assertEquals(new BridgeStatistics(0, 0, 12, 0), bridge.statistics());
            assertEquals(2, reports.size(), "reported at the 1st and the 10th: " + reports);
            assertTrue(reports.get(0).contains("etw4j-Test-Core-Throw") && reports.get(0).contains("1 time so far"), reports.get(0));
            assertTrue(reports.get(1).contains("10 times so far"), reports.get(1));
            assertEquals("toString fails", causes.get(0).getMessage());
        }
    }

    @Test
    void anArgumentWhoseToStringRecursesForeverIsAFailedWriteNotAStackOverflowInTheCaller() throws Exception {
        // Failed before issue 22 item 9: the StackOverflowError came out of log() (only RuntimeException and
        // LinkageError were caught).
        String provider = "etw4j-Test-Core-Recurse";
        List<Throwable> causes = new ArrayList<>();
        try (LoggingBridge<Rec> bridge = LoggingBridge.open(provider, null, new RecAccess(), (m, e) -> causes.add(e))) {
            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
                bridge.log(LogLevel.WARNING, new Rec("l", "t", "t {}", new Object[] {LogCapture.RECURSING_TO_STRING},
                        null, Map.of()));
                bridge.log(LogLevel.WARNING, new Rec("l", "t", "after", new Object[0], null, Map.of()));
                assertEquals(1, cap.stop().size(), "the next record is written");
            }
            assertEquals(new BridgeStatistics(1, 0, 1, 0), bridge.statistics());
            assertTrue(causes.get(0) instanceof StackOverflowError, causes.toString());
        }
    }

    @Test
    void anEventOverEtwsSizeLimitIsRefusedCountedAndReported() throws Exception {
        String provider = "etw4j-Test-Core-TooBig";
        Object[] args = new Object[40];
        java.util.Arrays.fill(args, "v".repeat(LoggingBridge.MAX_VALUE_CHARS)); // 40 x 4 KB of UTF-16: over 64 KB
        List<String> reports = new ArrayList<>();
        try (LoggingBridge<Rec> bridge = LoggingBridge.open(provider, null, new RecAccess(), (m, e) -> reports.add(m))) {
            try (LogCapture cap = LogCapture.start(provider, Level.VERBOSE, LoggingKeywords.MESSAGE)) {
                bridge.log(LogLevel.INFORMATION, new Rec("l", "t", "t", args, null, Map.of()));
                assertEquals(List.of(), cap.stop());
            }
            assertEquals(new BridgeStatistics(0, 1, 0, 0), bridge.statistics());
            assertEquals(1, reports.size(), reports.toString());
            assertTrue(reports.get(0).contains("ETW refused a log event: ERROR_ARITHMETIC_OVERFLOW (534)"), reports.get(0));
            assertEquals(1, bridge.provider().statistics().failures());
        }
    }

    @Test
    void configurationErrorsNameWhatIsMissing() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LoggingBridge.open(" ", null, new RecAccess(), (m, t) -> { }));
        assertTrue(e.getMessage().startsWith("providerName is required"), e.getMessage());
    }

    @Test
    void anExplicitGuidWins() {
        try (LoggingBridge<Rec> bridge = LoggingBridge.open("etw4j-Test-Core-Guid", "{8b0a2e1c-1d3f-4c5e-9a7b-6c5d4e3f2a10}",
                new RecAccess(), (m, t) -> { })) {
            assertEquals("8b0a2e1c-1d3f-4c5e-9a7b-6c5d4e3f2a10", bridge.provider().id().toString());
        }
    }
}
