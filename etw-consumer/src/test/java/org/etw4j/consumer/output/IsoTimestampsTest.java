package org.etw4j.consumer.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;
import org.etw4j.consumer.internal.Utf8Buffer;
import org.junit.jupiter.api.Test;

/** {@link IsoTimestamps} writes the bytes of what {@link Instant#toString()} writes. */
class IsoTimestampsTest {
    @Test
    void sameTextAsInstantToString() {
        IsoTimestamps iso = new IsoTimestamps();
        Utf8Buffer buf = new Utf8Buffer(64);
        SplittableRandom random = new SplittableRandom(11);
        long[] seconds = {0, -11_644_473_600L /* 1601, FILETIME 0 */, 253_402_300_799L /* 9999-12-31T23:59:59 */,
            253_402_300_800L /* year 10000 */, -62_135_596_800L /* year 1 */, -1, 1_595_981_220L};
        int[] nanos = {0, 1, 100, 1_000, 1_000_000, 100_000_000, 623_616_700, 744_579_000, 999_999_999, 120_000_000};
        for (long s : seconds) {
            for (int n : nanos) {
                Instant t = Instant.ofEpochSecond(s, n);
                assertEquals(t.toString(), iso.write(buf.clear(), t).toString());
            }
        }
        for (int i = 0; i < 100_000; i++) {
            // time order as in a trace, with jumps, and arbitrary instants
            Instant t = i % 2 == 0 ? Instant.ofEpochSecond(1_595_981_220L + i / 1000, random.nextInt(1_000_000_000))
                    : Instant.ofEpochSecond(random.nextLong(-20_000_000_000L, 300_000_000_000L),
                    random.nextInt(4) * 250_000_000 + (random.nextBoolean() ? random.nextInt(1000) * 1000 : 0));
            assertEquals(t.toString(), iso.write(buf.clear(), t).toString());
        }
    }
}
