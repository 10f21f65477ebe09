package org.etw4j.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.etw4j.controller.TraceSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLocksProvider.Lock;

class ProviderLocksTest {
    @EtwTest(providers = {"A-Provider", "B-Provider"})
    static class Annotated {
        @EtwTest(providers = "C-Provider")
        void method(@EtwCapture(providers = "D-Provider") CapturedEvents d) {
        }
    }

    @Test
    void aNameAndItsGuidTextLockTheSameResource() {
        String guid = TraceSession.resolve("A-Provider").toString();
        assertEquals(ProviderLocks.key("A-Provider"), ProviderLocks.key(guid));
        assertEquals(ProviderLocks.KEY_PREFIX + guid, ProviderLocks.key("A-Provider"));
    }

    @Test
    void locksComeFromTheClassTheMethodAndItsParameters() throws Exception {
        ProviderLocks locks = new ProviderLocks();
        assertEquals(Set.of(lock("A-Provider"), lock("B-Provider")), locks.provideForClass(Annotated.class));
        assertEquals(Set.of(lock("C-Provider"), lock("D-Provider")), locks.provideForMethod(List.of(), Annotated.class,
                Annotated.class.getDeclaredMethod("method", CapturedEvents.class)));
        assertEquals(Set.of(), locks.provideForClass(ProviderLocksTest.class));
    }

    private static Lock lock(String provider) {
        return new Lock(ProviderLocks.key(provider), ResourceAccessMode.READ_WRITE);
    }
}
