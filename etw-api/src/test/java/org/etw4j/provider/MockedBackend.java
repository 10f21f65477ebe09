package org.etw4j.provider;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.ProviderRegistration;
import org.mockito.ArgumentCaptor;

/**
 * A provider registered on a mocked backend, with the backend's side of it: the registration its writes reach and
 * the callback that enables it. For tests of the provider's own rules. Immutable value; one per test.
 */
record MockedBackend(EtwBackend backend, ProviderRegistration registration, EnableCallback callback,
                     EtwProvider provider) {

    /** Registers the provider {@code builder} describes on a new mocked backend. */
    static MockedBackend register(EtwProvider.Builder builder) {
        EtwBackend backend = mock(EtwBackend.class);
        ProviderRegistration registration = mock(ProviderRegistration.class);
        ArgumentCaptor<EnableCallback> cb = ArgumentCaptor.forClass(EnableCallback.class);
        when(backend.registerProvider(any(), cb.capture())).thenReturn(registration);
        EtwProvider provider = builder.backend(backend).register();
        return new MockedBackend(backend, registration, cb.getValue(), provider);
    }
}
