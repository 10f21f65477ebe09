/**
 * Writing events: ETW providers, manifest-style and TraceLogging events, enable state, activities.
 *
 * <p>Entry point: {@link org.etw4j.provider.EtwProvider#register(String)} (or its
 * {@link org.etw4j.provider.EtwProvider#builder(String) builder}); then {@code isEnabled(level, keyword)} and
 * {@code event(descriptor)...write()} on the hot path, as JFR's {@code Event.shouldCommit()} then
 * {@code commit()}.
 *
 * <p>Threading: an {@code EtwProvider} is thread-safe; register it once and share it. {@code isEnabled} reads the
 * state the last enable notification published, with no lock, native call or allocation.
 * Reuse: {@link org.etw4j.provider.EventWriter} is the calling thread's reusable writer, valid for one event
 * until the next {@code event(...)} call on that thread; never keep or share it. Writes never throw into the
 * application: they return a Win32 status and count failures
 * ({@link org.etw4j.provider.EtwProvider#statistics()}). Enable listeners run on a notification thread of their
 * own, never on ETW's. Close: {@link org.etw4j.provider.EtwProvider#close()} unregisters
 * ({@code EventUnregister}), is idempotent, and writes after it return {@code ERROR_INVALID_HANDLE};
 * {@link org.etw4j.provider.ActivityScope} is closed to write the activity's STOP event.
 */
package org.etw4j.provider;
