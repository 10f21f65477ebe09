/**
 * The JNA backend: the provider side of ETW (register, write, enable callbacks, activity ids) for services on Java
 * 17 to 22, where the FFM backend of etw-native-bindings cannot run.
 *
 * <p>Entry point: none to call. Put etw-jna on the class or module path and the backend SPI finds
 * {@link org.etw4j.jna.JnaBackendFactory} ({@code ServiceLoader}); {@code Backend.getDefault()} chooses it on
 * Windows when no FFM backend runs, or when {@code -Detw4j.backend=jna} names it. Applications keep writing through
 * {@code EtwProvider}; {@link org.etw4j.jna.JnaBackend#callbackFailures()} lists what a provider's enable callback
 * threw ({@link org.etw4j.jna.CallbackFailure}).
 *
 * <p>Threading: the backend is thread-safe and one per process. It cannot start, control or consume sessions
 * ({@code supportsControl()} is false). Native safety: notifications find their provider by an id, never an
 * address, and nothing thrown goes back to ETW. Close: nothing to close on the backend; each provider's
 * registration is closed by {@code EtwProvider.close()}, idempotent.
 */
package org.etw4j.jna;
