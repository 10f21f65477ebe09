package org.etw4j.format;

import org.etw4j.LogfileHeader;
import org.etw4j.TimestampConverter;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampAndHeaderTest {

    @Test
    void qpcConversionMatchesTheDocVectors() {
        // etw-formats.md 3.7 [V]: AMSITrace and lxcore (PerfFreq 1e7, clock 1)
        TimestampConverter amsi = TimestampConverter.qpc(132264173104203138L, 2745263251517L, 10_000_000L);
        assertEquals(132264173377518824L, amsi.toFileTime(2745536567203L));
        assertEquals(Instant.parse("2020-02-17T12:48:57.751882400Z"), TimestampConverter.toInstant(132264173377518824L));
        TimestampConverter lx = TimestampConverter.qpc(132392018711387363L, 110988826450L, 10_000_000L);
        assertEquals(132392018769038717L, lx.toFileTime(111046477804L));
    }

    @Test
    void otherClocksAndInverse() {
        TimestampConverter sys = TimestampConverter.systemTime(1000, 1000);
        assertEquals(5000, sys.toFileTime(5000));
        TimestampConverter qpc3 = TimestampConverter.qpc(0, 0, 3_000_000L);
        assertEquals(10, qpc3.toFileTime(3), "3 ticks of a 3 MHz counter = 1 us = 10 x 100 ns");
        TimestampConverter cyc = TimestampConverter.cpuCycles(0, 0, 2000);
        assertEquals(10, cyc.toFileTime(2000), "2000 cycles at 2000 MHz = 1 us");
        assertEquals(123456789L, qpc3.toRaw(qpc3.toFileTime(123456789L)), "inverse");
        Instant t = Instant.parse("2026-11-22T02:00:00.1234567Z");
        assertEquals(t, TimestampConverter.toInstant(TimestampConverter.toFileTime(t)));
    }

    @Test
    void logfileHeaderRoundTripsThroughTheSixtyFourBitLayout() {
        LogfileHeader h = new LogfileHeader(65536, 10, 0, 1, 5, 19045, 8, 133L, 156250, 0, 0x101, 7, 8, 3, 3000, 11L,
                10_000_000L, 12L, 1, 2, -60, "my-session", "C:\\t\\x.etl");
        ByteBuffer b = ByteBuffer.allocate(h.encodedSize64()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(h.encodedSize64(), h.encode64(b, 0));
        assertEquals(h, LogfileHeader.decode(b, 0, 8, b.capacity()));
        assertEquals(0x118 + 22 + 22, h.encodedSize64());
    }
}
