package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Handler failures are logged rate-limited and still counted (issue 22, item 10; ../shared/hardening/
 * repro_stream_log_flood.sh: 20,000 failures were 20,000 WARNING records with stack traces, 11.6 MB of stderr).
 */
class RateLimitedLogTest {

    /** A System.Logger that keeps what it is given. */
    private static final class Recording implements System.Logger {
        final List<String> lines = new ArrayList<>();
        final List<Throwable> thrown = new ArrayList<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
            lines.add(msg);
            thrown.add(t);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            lines.add(format);
            thrown.add(null);
        }
    }

    @Test
    void theFirstWithItsStackThenOneLineAMinuteWithTheCount() {
        Recording log = new Recording();
        long[] now = {0};
        RateLimitedLog limited = new RateLimitedLog(log, TimeUnit.MINUTES.toNanos(1), () -> now[0]);
        IllegalStateException error = new IllegalStateException("bad handler");
        for (int i = 0; i < 20_000; i++) {
            limited.warn("event stream over x", error);
        }
        assertEquals(1, log.lines.size(), log.lines.toString());
        assertNotNull(log.thrown.get(0), "the first with its stack trace");
        now[0] = TimeUnit.SECONDS.toNanos(61);
        limited.warn("event stream over x", error);
        assertEquals(2, log.lines.size());
        assertNull(log.thrown.get(1), "later ones without");
        assertTrue(log.lines.get(1).contains("(20001 so far, 19999 not logged since the last line; at most one line per 60 s)"),
                log.lines.get(1));
    }
}
