package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.ArgumentMatchers.*;
import static org.mockito.Mockito.*;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.ProviderRegistration;
import org.etw4j.tracelogging.ProviderIds;
import org.etw4j.tracelogging.ProviderTraits;
import org.etw4j.tracelogging.TraceLoggingEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** The provider's own rules, against a mocked backend (what it does with notifications and write results). */
class EtwProviderTest {
    private EtwBackend backend;
    private ProviderRegistration registration;
    private EnableCallback callback;
    private final List<EnableNotification> notifications = new CopyOnWriteArrayList<>();
    private final List<Integer> writeErrors = new CopyOnWriteArrayList<>();
    private EtwProvider provider;

    @BeforeEach
    void setUp() {
        MockedBackend mocked = MockedBackend.register(EtwProvider.builder("MyProvider")
                .onEnable((p, n) -> notifications.add(n))
                .onWriteError((p, d, st) -> writeErrors.add(st)));
        backend = mocked.backend();
        registration = mocked.registration();
        callback = mocked.callback();
        provider = mocked.provider();
    }

    @Test
    void registersByNameWithTheDerivedGuidAndSetsTraits() {
        assertEquals(Guid.parse("b3864c38-4273-58c5-545b-8b3608343471"), provider.id(), "etw-formats.md section 2 vector");
        verify(backend).registerProvider(eq(ProviderIds.fromName("MyProvider")), any());
        verify(registration).setInformation(eq(EtwProvider.EVENT_PROVIDER_SET_TRAITS), eq(ProviderTraits.encode("MyProvider", null)));
    }

    @Test
    void seed000_unknownControlCodesAreIgnored() throws Exception {
        callback.onNotification(1, Guid.NULL, 4, 0x3, 0, List.of());
        EnableState before = provider.enableState();
        callback.onNotification(7, Guid.NULL, 0, 0, 0, List.of());
        callback.onNotification(-1, Guid.NULL, 255, -1, 0, List.of());
        assertSame(before, provider.enableState());
        awaitSize(1);
        Thread.sleep(50);
        assertEquals(1, notifications.size(), "listeners are not told about unknown codes");
    }

    @Test
    void seed000_enableRecordsLevelAndKeywordsAndDisableClearsThem() throws Exception {
        callback.onNotification(1, Guid.NULL, 3, 0xF0, 0x10, List.of(new FilterData(0x80000000, new byte[] {1, 2})));
        assertEquals(new EnableState(true, 3, 0xF0, 0x10), provider.enableState());
        assertTrue(provider.isEnabled(3, 0x30));
        assertFalse(provider.isEnabled(4, 0x30));
        callback.onNotification(0, Guid.NULL, 0, 0, 0, List.of());
        assertFalse(provider.isEnabled());
        awaitSize(2);
        assertEquals(ControlCode.ENABLE_PROVIDER, notifications.get(0).controlCode());
        assertArrayEquals(new byte[] {1, 2}, notifications.get(0).filters().get(0).data());
        assertEquals(ControlCode.DISABLE_PROVIDER, notifications.get(1).controlCode());
    }

    @Test
    void seed000_listenerRunsOffTheNotifyingThreadEvenWhenItThrows() throws Exception {
        CountDownLatch ran = new CountDownLatch(2);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        EtwProvider p = EtwProvider.builder("Throwing").backend(backend).onEnable((pr, n) -> {
            threads.add(Thread.currentThread());
            ran.countDown();
            throw new IllegalStateException("listener bug");
        }).register();
        ArgumentCaptor<EnableCallback> cb = ArgumentCaptor.forClass(EnableCallback.class);
        verify(backend).registerProvider(eq(p.id()), cb.capture());
        assertDoesNotThrow(() -> cb.getValue().onNotification(1, Guid.NULL, 5, -1, 0, List.of()));
        assertDoesNotThrow(() -> cb.getValue().onNotification(2, Guid.NULL, 5, -1, 0, List.of()));
        assertTrue(ran.await(5, TimeUnit.SECONDS), "later notifications still arrive after a listener threw");
        assertFalse(threads.contains(Thread.currentThread()));
        // The listener counts down before it throws; the error is counted after it returns: wait for the count.
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (p.statistics().listenerErrors() < 2 && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertEquals(2, p.statistics().listenerErrors());
    }

    @Test
    void nothingReachesTheBackendWhenNobodyListens() {
        EventDescriptor d = EventDescriptor.of(1, Level.ERROR, 1);
        assertEquals(0, provider.write(d));
        assertEquals(0, provider.event(d).int32(5).string("x").write());
        verify(registration, never()).write(any(), any(), any(), any());
        assertEquals(2, provider.statistics().skipped());
    }

    @Test
    void seed002_failedWritesReturnTheStatusCountItAndTellTheListener() {
        callback.onNotification(1, Guid.NULL, 5, -1, 0, List.of());
        when(registration.write(any(), any(), any(), any())).thenReturn(Win32Error.ERROR_MORE_DATA.code());
        EventDescriptor d = EventDescriptor.of(1, Level.ERROR, 1);
        assertEquals(234, provider.write(d));
        assertEquals(234, provider.event(d).int64(1).write());
        ProviderStatistics s = provider.statistics();
        assertEquals(2, s.writes());
        assertEquals(2, s.failures());
        assertEquals(2, s.failures(234));
        assertEquals(List.of(234, 234), writeErrors);
    }

    @Test
    void seed002_aThrowingErrorListenerNeverReachesTheApplication() {
        EtwProvider p = EtwProvider.builder("BadListener").backend(backend).onWriteError((pr, d, st) -> {
            throw new RuntimeException("boom");
        }).register();
        p.close();
        assertEquals(Win32Error.ERROR_INVALID_HANDLE.code(), assertDoesNotThrow(() -> p.write(EventDescriptor.of(1, Level.ERROR, 1))));
        assertEquals(1, p.statistics().listenerErrors());
    }

    @Test
    void traceLoggingWritesPassTraitsMetadataAndPayloadBlocks() {
        callback.onNotification(1, Guid.NULL, 5, -1, 0, List.of());
        TraceLoggingEvent e = TraceLoggingEvent.builder("Request").level(Level.INFORMATIONAL).keyword(1).int32Field("status").build();
        ArgumentCaptor<EventData> data = ArgumentCaptor.forClass(EventData.class);
        when(registration.write(any(), any(), any(), data.capture())).thenAnswer(inv -> {
            EventData d = inv.getArgument(3);
            assertEquals(3, d.count());
            assertEquals(EventData.TYPE_PROVIDER_METADATA, d.type(0));
            assertEquals(EventData.TYPE_EVENT_METADATA, d.type(1));
            assertEquals(EventData.TYPE_PAYLOAD, d.type(2));
            assertArrayEquals(new byte[] {(byte) 200, 0, 0, 0}, d.payloadBytes());
            return 0;
        });
        assertEquals(0, provider.event(e).int32(200).write());
        verify(registration).write(eq(e.descriptor()), isNull(), isNull(), any());
    }

    @Test
    void closeIsIdempotentAndUnregistersOnce() {
        provider.close();
        provider.close();
        verify(registration, times(1)).close();
        assertTrue(provider.isClosed());
    }

    @Test
    void badNamesFailFast() {
        assertThrows(IllegalArgumentException.class, () -> EtwProvider.builder(""));
        assertThrows(IllegalArgumentException.class, () -> EtwProvider.builder("a\0b"));
    }

    private void awaitSize(int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (notifications.size() < n && System.nanoTime() < end) {
            Thread.sleep(2);
        }
        assertEquals(n, notifications.size());
    }
}
