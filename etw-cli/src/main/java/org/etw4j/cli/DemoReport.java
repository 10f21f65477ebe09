package org.etw4j.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.etw4j.Level;
import org.etw4j.controller.SessionStatistics;

/**
 * Prints what {@code etw demo} wrote, what each session received, the session statistics and the checks.
 *
 * <p>Not thread-safe; one per run. The structure of the output is fixed (sections, rows, column order), so that
 * people and tests can read it; values such as thread ids and activity ids differ between runs.
 */
final class DemoReport {
    private final DemoCommand.DemoRun run;
    private final List<String> checks = new ArrayList<>();
    private int failed;

    DemoReport(DemoCommand.DemoRun run) {
        this.run = run;
    }

    /** Prints the report; returns whether every check passed. */
    boolean print(PrintWriter out) {
        int w = run.workers;
        int r = run.rounds;
        out.println("etw demo: " + w + " worker threads x " + r + " rounds, on the simulated ETW backend (pure Java)");
        out.println();
        out.println("Provider");
        out.println("  " + DemoEvents.PROVIDER_NAME + "  " + DemoEvents.PROVIDER_ID + "  (GUID derived from the name)");
        out.println("  manifest etw4j-demo.man: " + run.manifest.events() + " events; TraceLogging events: "
                + DemoEvents.TICK.name() + ", " + DemoEvents.SAMPLE.name() + ", " + DemoEvents.JOB.name());
        out.println();
        out.println("Sessions (real-time)");
        out.println("  A  " + DemoCommand.SESSION_A + "  level 4 (INFORMATIONAL), MatchAnyKeyword 0x1");
        out.println("  B  " + DemoCommand.SESSION_B + "  level 5 (VERBOSE), all keywords, IGNORE_KEYWORD_0, "
                + "EventIds deny [" + DemoEvents.CACHE_MISS.id() + "]");
        out.println("  provider enable state (combined): level " + run.enableState.level() + ", MatchAnyKeyword 0x"
                + Long.toHexString(run.enableState.matchAnyKeyword()) + ", MatchAllKeyword 0x"
                + Long.toHexString(run.enableState.matchAllKeyword()));
        out.println();

        long perRound = 0;
        for (DemoKind k : DemoKind.values()) {
            perRound += k == DemoKind.JOB_START || k == DemoKind.JOB_STOP || k == DemoKind.PROVIDER_STATE ? 0 : k.written(w, r);
        }
        out.println("Written: " + perRound + " events in rounds, " + w + " Job activities, CAPTURE_STATE (session A) "
                + (run.captureAnswered ? "answered" : "NOT answered") + "; " + run.writeFailures.sum() + " write failures");
        TextTable t = new TextTable("  ");
        t.row("event", "id", "level", "keyword", "written", "expect A", "expect B", "why");
        for (DemoKind k : DemoKind.values()) {
            t.row(k.displayName(), k.descriptor().id(), k.descriptor().level(), "0x" + Long.toHexString(k.descriptor().keyword()),
                    k.written(w, r), k.expectedA(w, r), k.expectedB(w, r), k.why());
        }
        t.print(out);
        out.println();

        out.println("Received");
        TextTable rec = new TextTable("  ");
        rec.row("event", "A", "B");
        for (DemoKind k : DemoKind.values()) {
            rec.row(k.displayName(), run.tallyA.received(k), run.tallyB.received(k));
        }
        for (Map.Entry<String, Long> e : run.tallyA.otherKinds().entrySet()) {
            rec.row(e.getKey(), e.getValue(), run.tallyB.otherKinds().getOrDefault(e.getKey(), 0L));
        }
        for (Map.Entry<String, Long> e : run.tallyB.otherKinds().entrySet()) {
            if (!run.tallyA.otherKinds().containsKey(e.getKey())) {
                rec.row(e.getKey(), 0, e.getValue());
            }
        }
        rec.row("(total)", run.tallyA.events(), run.tallyB.events());
        rec.row("(trace header)", run.tallyA.headerEvents(), run.tallyB.headerEvents());
        for (Level l : Level.values()) {
            rec.row("level " + l.value() + " " + l.name(), run.tallyA.atLevel(l.value()), run.tallyB.atLevel(l.value()));
        }
        rec.print(out);
        out.println();

        out.println("Session statistics");
        TextTable st = new TextTable("  ");
        st.row("", "A", "B");
        st.row("accepted", run.statsA.eventsAccepted(), run.statsB.eventsAccepted());
        st.row("delivered", run.statsA.eventsDelivered(), run.statsB.eventsDelivered());
        st.row("lost", run.statsA.eventsLost(), run.statsB.eventsLost());
        st.row("pending", run.statsA.eventsPending(), run.statsB.eventsPending());
        st.row("buffers written", run.statsA.buffersWritten(), run.statsB.buffersWritten());
        st.row("buffers lost", run.statsA.buffersLost(), run.statsB.buffersLost());
        st.print(out);
        out.println();

        out.println("Samples (first event of each kind each session received, decoded)");
        for (DemoKind k : DemoKind.values()) {
            printSample(out, "A", run.tallyA.sample(k));
        }
        for (DemoKind k : DemoKind.values()) {
            printSample(out, "B", run.tallyB.sample(k));
        }
        out.println();

        runChecks();
        out.println("Checks");
        for (String c : checks) {
            out.println("  " + c);
        }
        for (String p : run.problems) {
            out.println("  note: " + p);
        }
        for (String e : run.tallyA.errors()) {
            out.println("  consumer A error: " + e);
        }
        for (String e : run.tallyB.errors()) {
            out.println("  consumer B error: " + e);
        }
        out.println(failed == 0 ? "Result: all " + checks.size() + " checks passed"
                : "Result: " + failed + " of " + checks.size() + " checks FAILED");
        return failed == 0;
    }

    private static void printSample(PrintWriter out, String session, SessionTally.Sample sample) {
        if (sample != null) {
            out.println("  " + session + "  " + sample.header());
            out.println("       " + sample.text());
        }
    }

    private void runChecks() {
        int w = run.workers;
        int r = run.rounds;
        check(run.writeFailures.sum() == 0, "every write returned ERROR_SUCCESS (" + run.writeFailures.sum() + " failures)");
        for (DemoKind k : DemoKind.values()) {
            countCheck("A", k, run.tallyA.received(k), k.expectedA(w, r), run.statsA);
            countCheck("B", k, run.tallyB.received(k), k.expectedB(w, r), run.statsB);
        }
        check(run.tallyA.otherKinds().isEmpty() && run.tallyB.otherKinds().isEmpty(),
                "no unexpected event kinds (A " + run.tallyA.otherKinds().keySet() + ", B " + run.tallyB.otherKinds().keySet() + ")");
        check(run.tallyA.atLevel(Level.VERBOSE.value()) == 0,
                "A (level 4) got " + run.tallyA.atLevel(Level.VERBOSE.value()) + " verbose (level 5) events");
        check(run.tallyB.atLevel(Level.VERBOSE.value()) > 0,
                "B (level 5) got " + run.tallyB.atLevel(Level.VERBOSE.value()) + " verbose events");
        check(run.tallyA.withId(DemoEvents.CACHE_MISS.id()) == 0,
                "A (MatchAnyKeyword 0x1) got " + run.tallyA.withId(DemoEvents.CACHE_MISS.id()) + " keyword-0x2 CacheMiss events");
        check(run.tallyB.withId(DemoEvents.CACHE_MISS.id()) == 0,
                "B (EventIds deny [3]) got " + run.tallyB.withId(DemoEvents.CACHE_MISS.id()) + " events with id 3");
        check(run.tallyB.keywordZero() == 0,
                "B (IGNORE_KEYWORD_0) got " + run.tallyB.keywordZero() + " keyword-0 events");
        check(run.tallyA.keywordZero() > 0,
                "A (no IGNORE_KEYWORD_0) got " + run.tallyA.keywordZero() + " keyword-0 events");
        check(run.captureAnswered && run.tallyA.received(DemoKind.PROVIDER_STATE) == w
                        && run.tallyB.received(DemoKind.PROVIDER_STATE) == w,
                "CAPTURE_STATE answered: " + run.tallyA.received(DemoKind.PROVIDER_STATE) + " ProviderState events in A, "
                        + run.tallyB.received(DemoKind.PROVIDER_STATE) + " in B (expected " + w + " each)");
        activityCheck("A", run.tallyA, true);
        activityCheck("B", run.tallyB, false);
        check(run.tallyA.undecoded() == 0 && run.tallyB.undecoded() == 0,
                "every event decoded by its manifest or TraceLogging schema (undecoded: A " + run.tallyA.undecoded()
                        + ", B " + run.tallyB.undecoded() + ")");
        check(run.tallyA.headerEvents() == 1 && run.tallyB.headerEvents() == 1,
                "each consumer got one trace-header event first (A " + run.tallyA.headerEvents() + ", B "
                        + run.tallyB.headerEvents() + ")");
        statsCheck("A", run.statsA, run.tallyA);
        statsCheck("B", run.statsB, run.tallyB);
    }

    private void countCheck(String session, DemoKind k, long got, long expected, SessionStatistics s) {
        if (s.eventsLost() == 0) {
            check(got == expected, session + " " + k.displayName() + ": received " + got + ", expected " + expected);
        } else {
            // With losses the lost events cannot be attributed to kinds: only an upper bound holds.
            check(got <= expected, session + " " + k.displayName() + ": received " + got + " <= expected " + expected
                    + " (session lost " + s.eventsLost() + " events)");
        }
    }

    /** Every event written inside a worker's Job activity carries that activity's id. */
    private void activityCheck(String session, SessionTally t, boolean a) {
        int w = run.workers;
        int r = run.rounds;
        long inJobs = 0;
        for (DemoKind k : DemoKind.values()) {
            if (k != DemoKind.PROVIDER_STATE) {
                inJobs += a ? k.expectedA(w, r) : k.expectedB(w, r);
            }
        }
        long got = t.withActivity(run.jobActivities);
        check(run.jobActivities.size() == w && got == inJobs && t.withoutActivity() == t.received(DemoKind.PROVIDER_STATE),
                session + ": " + got + " events carry their worker's Job activity id (expected " + inJobs + " over "
                        + run.jobActivities.size() + " activities); " + t.withoutActivity()
                        + " events without one (the ProviderState events)");
    }

    private void statsCheck(String session, SessionStatistics s, SessionTally t) {
        check(s.eventsAccepted() == s.eventsDelivered() + s.eventsLost() + s.eventsPending()
                        && s.eventsDelivered() == t.events() && s.eventsLost() == 0 && s.eventsPending() == 0
                        && t.lostEvents() == 0,
                session + " statistics: accepted " + s.eventsAccepted() + " = delivered " + s.eventsDelivered()
                        + " = received " + t.events() + ", lost " + s.eventsLost() + ", pending " + s.eventsPending());
    }

    private void check(boolean ok, String text) {
        if (!ok) {
            failed++;
        }
        checks.add((ok ? "ok      " : "FAILED  ") + text);
    }
}
