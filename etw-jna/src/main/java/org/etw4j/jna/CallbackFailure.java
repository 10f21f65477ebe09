package org.etw4j.jna;

import org.etw4j.Guid;

/**
 * Something thrown while the JNA backend handled an enable notification: by the provider's
 * {@link org.etw4j.spi.EnableCallback}, or while copying the notification's native arguments.
 *
 * <p>Immutable; thread-safe. Nothing thrown in a notification is allowed back into native code (ETW cannot
 * handle it), so the backend records it here and carries on; see {@link JnaBackend#callbackFailures()}.
 *
 * @param providerId  the provider the notification was for
 * @param controlCode the notification's control code (IsEnabled)
 * @param error       what was thrown
 */
public record CallbackFailure(Guid providerId, int controlCode, Throwable error) {
}
