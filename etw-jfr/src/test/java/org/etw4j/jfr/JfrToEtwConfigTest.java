package org.etw4j.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class JfrToEtwConfigTest {

    @Test
    void defaultSetHasEveryGroupAndClassLoadOff() {
        JfrToEtwConfig c = JfrToEtwConfig.defaults();
        assertEquals("Java-Runtime", c.providerName());
        for (String on : new String[] {"jdk.GarbageCollection", "jdk.GCPhasePause", "jdk.SafepointBegin",
                "jdk.ExecuteVMOperation", "jdk.Compilation", "jdk.ThreadStart", "jdk.ThreadEnd",
                "jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.ObjectAllocationSample", "jdk.CPULoad"}) {
            assertTrue(c.event(on).enabled(), on);
        }
        assertFalse(c.event("jdk.ClassLoad").enabled());
        assertEquals(Category.CLASS_LOADING, c.event("jdk.ClassLoad").category());
        assertEquals(Duration.ofMillis(20), c.event("jdk.JavaMonitorEnter").threshold());
        assertEquals(Duration.ofSeconds(1), c.event("jdk.CPULoad").period());
        assertEquals("150/s", c.event("jdk.ObjectAllocationSample").throttle());
    }

    @Test
    void agentArgumentsOverrideProperties() {
        Properties p = new Properties();
        p.setProperty("etw4j.jfr.provider", "FromProperty");
        p.setProperty("etw4j.jfr.threshold.jdk.ThreadPark", "1s");
        p.setProperty("unrelated", "x");
        JfrToEtwConfig c = JfrToEtwConfig.parse("provider=My-Jvm, events=+jdk.ClassLoad;-jdk.CPULoad;my.Custom,"
                + "threshold.jdk.JavaMonitorEnter=5ms,period.jdk.CPULoad=500ms,stackTrace=jdk.ThreadPark,"
                + "throttle.jdk.ObjectAllocationSample=10/s", p);
        assertEquals("My-Jvm", c.providerName());
        assertTrue(c.event("jdk.ClassLoad").enabled());
        assertFalse(c.event("jdk.CPULoad").enabled());
        assertEquals(Duration.ofMillis(500), c.event("jdk.CPULoad").period());
        assertEquals(Category.OTHER, c.event("my.Custom").category());
        assertTrue(c.event("my.Custom").enabled());
        assertEquals(Duration.ofMillis(5), c.event("jdk.JavaMonitorEnter").threshold());
        assertEquals(Duration.ofSeconds(1), c.event("jdk.ThreadPark").threshold()); // from the property
        assertTrue(c.event("jdk.ThreadPark").stackTrace());
        assertEquals("10/s", c.event("jdk.ObjectAllocationSample").throttle());
    }

    @Test
    void onlyKeepsExactlyTheNamedEvents() {
        JfrToEtwConfig c = JfrToEtwConfig.parse("only=jdk.GarbageCollection;jdk.ThreadStart", null);
        long on = c.events().values().stream().filter(JfrEventSetting::enabled).count();
        assertEquals(2, on);
        assertTrue(c.event("jdk.GarbageCollection").enabled());
        assertTrue(c.event("jdk.ThreadStart").enabled());
    }

    @Test
    void durationsNeedUnitsExceptZero() {
        assertEquals(Duration.ZERO, JfrToEtwConfig.parseDuration("0"));
        assertEquals(Duration.ofNanos(1500), JfrToEtwConfig.parseDuration("1500ns"));
        assertEquals(Duration.ofNanos(7000), JfrToEtwConfig.parseDuration("7us"));
        assertEquals(Duration.ofMinutes(2), JfrToEtwConfig.parseDuration("2m"));
        assertThrows(IllegalArgumentException.class, () -> JfrToEtwConfig.parseDuration("10"));
        assertThrows(IllegalArgumentException.class, () -> JfrToEtwConfig.parseDuration("ms"));
        assertThrows(IllegalArgumentException.class, () -> JfrToEtwConfig.parse("nonsense", null));
        assertThrows(IllegalArgumentException.class, () -> JfrToEtwConfig.parse("color=red", null));
        assertNull(JfrToEtwConfig.defaults().event("my.Unknown"));
    }
}
