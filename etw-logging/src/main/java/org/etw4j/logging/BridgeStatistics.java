package org.etw4j.logging;

/**
 * A bridge's counters at one moment. Every record a session wanted is in exactly one of {@code written},
 * {@code failed} and {@code errors}; records no session wanted are not counted (they cost one enable check).
 *
 * <p>Immutable record; thread-safe.
 *
 * @param written   events written (status ERROR_SUCCESS)
 * @param failed    events ETW refused (non-zero status: no buffer free, event too large, ...); the provider's
 *                  {@code statistics()} has them by status
 * @param errors    records that could not be turned into an event (an argument's {@code toString()} threw, ...)
 * @param truncated strings shortened to keep the event under ETW's 64 KB limit (counted per string)
 */
public record BridgeStatistics(long written, long failed, long errors, long truncated) {
}
