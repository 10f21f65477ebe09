/**
 * The JNA backend: the provider side of ETW (register, write, enable callbacks, activity ids) for services on Java
 * 17 to 22, where the FFM backend of etw-native-bindings cannot run.
 *
 * <p>Entry point: nothing to call to use it. Put etw-jna on the class or module path and the backend SPI finds its
 * factory ({@code ServiceLoader}; {@code module-info} and {@code META-INF/services} both name it);
 * {@code Backend.getDefault()} chooses it on Windows when no FFM backend runs, or when {@code -Detw4j.backend=jna}
 * names it. Applications keep writing through {@code EtwProvider}. What they may call here:
 * {@link org.etw4j.jna.JnaBackend#of(org.etw4j.Backend)} (is the backend the JNA one, and what did a provider's
 * enable callback throw: {@link org.etw4j.jna.JnaBackend#callbackFailures()}, {@link org.etw4j.jna.CallbackFailure})
 * and {@link org.etw4j.jna.JnaBackend#create()} (a JNA backend for {@code EtwProvider.Builder.backend}). The SPI
 * implementation ({@code JnaEtwBackend}, its factory and registrations) lives in {@code org.etw4j.jna.internal},
 * which is not exported (only to JNA, for its native binding), since etw-api exports its SPI only to etw4j's own
 * modules.
 *
 * <p>Threading: the backend is thread-safe and one per process. It cannot start, control or consume sessions
 * ({@code supportsControl()} is false). Native safety: notifications find their provider by an id, never an
 * address, and nothing thrown goes back to ETW. Close: nothing to close on the backend; each provider's
 * registration is closed by {@code EtwProvider.close()}, idempotent.
 */
package org.etw4j.jna;
