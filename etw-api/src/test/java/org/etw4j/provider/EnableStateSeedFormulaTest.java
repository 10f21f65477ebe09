package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seed 000 and the provider frameworks: {@link EnableState#isEnabled} against a literal transcription of the seed's
 * {@code MyProviderEventEnabled} and against the rule of Windows' own provider frameworks, over random states and
 * events (with the edge values over-represented).
 *
 * <p>The seed's function is its own simplified example; the seed itself says most providers use a framework
 * (mc.exe-generated code, TraceLogging) whose enable callback records the values and filters with them. Those
 * frameworks read a recorded level of 0 as "every level", and providers written with them are what tools that
 * enable at level 0 meet; so where the two disagree (recorded level 0 only) the frameworks win:
 * <ul>
 *   <li>microsoft/tracelogging, etw/cpp/traceloggingdynamic/TraceLoggingDynamic.h@bdd914bd, Provider::EnableCallback:
 *       {@code m_levelPlus1 = level != 0 ? level + 1 : 256}, and {@code IsEnabled(level, keyword)} is
 *       {@code level < m_levelPlus1 && IsEnabledForKeywords(keyword)} (keywords: the seed's rule);</li>
 *   <li>mc.exe-generated headers, {@code McGenLevelKeywordEnabled}: {@code (Level <= EnableInfo->Level) ||
 *       (EnableInfo->Level == 0)}, "If the event Level is 0 or the channel is enabled at level 0, all levels are
 *       enabled" (reproduced by gix/event-trace-kit's mc-compatible generator, MCCompatibleCodeGenerator).</li>
 * </ul>
 * The seed's aggregation rules (maximum level, OR of MatchAny, AND of MatchAll) are unchanged: they decide the
 * values the callback receives, not how they are read.
 */
class EnableStateSeedFormulaTest {

    /** The seed's C function, transcribed literally (BOOL -> boolean, UCHAR -> 0-255, ULONGLONG -> long). */
    static boolean myProviderEventEnabled(boolean enabled, int providerLevel, long matchAny, long matchAll,
                                          int eventLevel, long eventKeyword) {
        return enabled
                && eventLevel <= providerLevel
                && (eventKeyword == 0 || (
                    (eventKeyword & matchAny) != 0
                    && (eventKeyword & matchAll) == matchAll
                ));
    }

    /** TraceLoggingDynamic.h's Provider after EnableCallback(ENABLE, level, any, all): IsEnabled(level, keyword). */
    static boolean traceLoggingDynamicIsEnabled(boolean enabled, int providerLevel, long matchAny, long matchAll,
                                                int eventLevel, long eventKeyword) {
        int levelPlus1 = !enabled ? 0 : providerLevel != 0 ? providerLevel + 1 : 256; // DISABLE stores 0
        return eventLevel < levelPlus1
                && (eventKeyword == 0 || ((eventKeyword & matchAny) != 0 && (eventKeyword & matchAll) == matchAll));
    }

    @Test
    void seed000_isEnabledEqualsMyProviderEventEnabledForEveryNonZeroRecordedLevel() {
        SplittableRandom r = new SplittableRandom(20261122L);
        int disagreements = 0;
        int trues = 0;
        int compared = 0;
        for (int i = 0; i < 2_000_000; i++) {
            Case c = Case.random(r);
            if (c.providerLevel == 0) {
                continue; // the one case where the frameworks differ from the seed's example: see below
            }
            compared++;
            boolean expected = myProviderEventEnabled(c.enabled, c.providerLevel, c.any, c.all, c.eventLevel, c.keyword);
            if (expected != c.actual()) {
                disagreements++;
            }
            if (expected) {
                trues++;
            }
        }
        assertEquals(0, disagreements);
        // the generator must exercise both outcomes a lot, or the comparison proves little
        assertTrue(trues > 100_000 && trues < compared - 100_000, "trues=" + trues + " of " + compared);
    }

    @Test
    void frameworks_isEnabledEqualsTraceLoggingDynamicOnRandomInputs() {
        SplittableRandom r = new SplittableRandom(20261125L);
        int disagreements = 0;
        int levelZeroTrues = 0;
        for (int i = 0; i < 2_000_000; i++) {
            Case c = Case.random(r);
            boolean expected = traceLoggingDynamicIsEnabled(c.enabled, c.providerLevel, c.any, c.all, c.eventLevel, c.keyword);
            if (expected != c.actual()) {
                disagreements++;
            }
            if (expected && c.providerLevel == 0 && c.eventLevel != 0) {
                levelZeroTrues++;
            }
        }
        assertEquals(0, disagreements);
        assertTrue(levelZeroTrues > 10_000, "recorded level 0 enabling nonzero event levels was exercised: " + levelZeroTrues);
    }

    @Test
    void frameworks_recordedLevelZeroEnablesEveryLevelAndKeywordRulesStillApply() {
        EnableState zero = new EnableState(true, 0, 0x0F, 0x03);
        for (int el = 0; el <= 255; el++) {
            assertTrue(zero.isEnabled(el, 0x03), "level " + el);
            assertTrue(zero.isEnabled(el, 0), "keyword 0, level " + el);
            assertFalse(zero.isEnabled(el, 0x10), "keyword outside MatchAny, level " + el);
            assertFalse(zero.isEnabled(el, 0x01), "keyword lacking a MatchAll bit, level " + el);
        }
        // what the seed's example alone would say: only level-0 events
        assertFalse(myProviderEventEnabled(true, 0, 0x0F, 0x03, 5, 0x03));
        assertTrue(new EnableState(true, 0, 0x0F, 0x03).isEnabled(5, 0x03));
    }

    @Test
    void seed000_disabledStateRejectsEverything() {
        assertFalse(EnableState.DISABLED.isEnabled(0, 0));
        assertFalse(new EnableState(false, 0, -1L, 0).isEnabled(5, 1), "disabled at level 0 is still disabled");
    }

    /** One random enable state and event, with the edge values over-represented. */
    private record Case(boolean enabled, int providerLevel, long any, long all, int eventLevel, long keyword) {
        static Case random(SplittableRandom r) {
            return new Case(r.nextInt(8) != 0, pickLevel(r), pickMask(r), pickMask(r), pickLevel(r), pickMask(r));
        }

        boolean actual() {
            return new EnableState(enabled, providerLevel, any, all).isEnabled(eventLevel, keyword);
        }
    }

    private static int pickLevel(SplittableRandom r) {
        switch (r.nextInt(4)) {
            case 0:
                return 0;
            case 1:
                return 255;
            case 2:
                return 1 + r.nextInt(5);
            default:
                return r.nextInt(256);
        }
    }

    private static long pickMask(SplittableRandom r) {
        switch (r.nextInt(6)) {
            case 0:
                return 0L;
            case 1:
                return -1L;
            case 2:
                return 1L << r.nextInt(64);
            case 3:
                return r.nextLong() & 0xFL;
            case 4:
                return r.nextLong() & 0xFFFF_0000_0000_0000L;
            default:
                return r.nextLong();
        }
    }
}
