package org.etw4j.consumer.etl;

import java.util.Arrays;
import java.util.Random;

/**
 * Test input for the decompressors' round trips: runs, repeats at random distances and noise, so that every
 * literal/match encoding of a compressor gets used. Stateless.
 */
final class CompressibleData {

    private CompressibleData() {
    }

    /**
     * {@code length} bytes drawn from {@code random}: stretches of noise (up to 40 bytes), of one repeated byte or
     * of bytes copied from up to {@code maxDistance} back (up to {@code maxStretch} bytes each).
     */
    static byte[] generate(Random random, int length, int maxStretch, int maxDistance) {
        byte[] data = new byte[length];
        int i = 0;
        while (i < length) {
            int kind = random.nextInt(4);
            int n = Math.min(length - i, 1 + random.nextInt(kind == 0 ? 40 : maxStretch));
            if (kind == 0 || i == 0) {
                for (int k = 0; k < n; k++) {
                    data[i + k] = (byte) random.nextInt();
                }
            } else if (kind == 1) {
                Arrays.fill(data, i, i + n, (byte) random.nextInt());
            } else {
                int distance = 1 + random.nextInt(Math.min(i, maxDistance));
                for (int k = 0; k < n; k++) {
                    data[i + k] = data[i + k - distance];
                }
            }
            i += n;
        }
        return data;
    }
}
