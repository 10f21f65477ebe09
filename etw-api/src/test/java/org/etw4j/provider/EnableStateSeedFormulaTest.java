package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seed 000: {@link EnableState#isEnabled} against a literal transcription of the seed's
 * {@code MyProviderEventEnabled}, over random states and events (with the edge values over-represented).
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

    @Test
    void seed000_isEnabledEqualsMyProviderEventEnabledOnRandomInputs() {
        SplittableRandom r = new SplittableRandom(20261122L);
        int disagreements = 0;
        int trues = 0;
        for (int i = 0; i < 2_000_000; i++) {
            boolean enabled = r.nextInt(8) != 0;
            int pl = pickLevel(r);
            long any = pickMask(r);
            long all = pickMask(r);
            int el = pickLevel(r);
            long ek = pickMask(r);
            boolean expected = myProviderEventEnabled(enabled, pl, any, all, el, ek);
            boolean actual = new EnableState(enabled, pl, any, all).isEnabled(el, ek);
            if (expected != actual) {
                disagreements++;
            }
            if (expected) {
                trues++;
            }
        }
        assertEquals(0, disagreements);
        // the generator must exercise both outcomes a lot, or the comparison proves little
        org.junit.jupiter.api.Assertions.assertTrue(trues > 100_000 && trues < 1_900_000, "trues=" + trues);
    }

    @Test
    void seed000_disabledStateRejectsEverything() {
        assertEquals(false, EnableState.DISABLED.isEnabled(0, 0));
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
