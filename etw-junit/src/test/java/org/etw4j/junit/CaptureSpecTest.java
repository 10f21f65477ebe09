package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaptureSpecTest {
    @Test
    void aCaptureWaitsForTheProvidersToSeeTheEnableBeforeTheTestBodyWrites() {
        // Issue 21, item 4: EnableTraceEx2 no longer waits by default; a capture must, or on Windows the first
        // events a test writes could precede its provider's enable callback.
        CaptureSpec spec = CaptureSpec.of(new String[] {"MyCompany-MyService"}, 4, 0x3, 0, new String[0], false);
        assertEquals(Duration.ofSeconds(10), spec.parameters().callbackWait());
        assertEquals(4, spec.parameters().level());
        assertEquals(0x3, spec.parameters().matchAnyKeyword());
    }
}
