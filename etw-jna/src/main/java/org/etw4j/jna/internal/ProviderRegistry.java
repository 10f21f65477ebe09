package org.etw4j.jna.internal;

import com.sun.jna.CallbackThreadInitializer;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process-wide table from enable-callback context ids to live registrations, and the one native enable
 * callback every registration uses.
 *
 * <p>Thread-safe. Why ids: ETW hands the {@code CallbackContext} given to EventRegister back to every
 * notification; an object address there would dangle once the object is gone, an id cannot: an unknown (stale)
 * id is counted and ignored. Ids are never reused, so a late notification for a closed provider can never
 * reach a newer one. A registration stays in the table, strongly referenced, from before EventRegister is
 * called (ETW may notify before it returns) until after EventUnregister returned (see
 * {@link JnaRegistration#close()}). The callback itself lives in a static field for the life of the process, so
 * the native trampoline JNA builds for it is never freed under ETW.
 */
final class ProviderRegistry {
    static final ProviderRegistry INSTANCE = new ProviderRegistry();

    private final ConcurrentHashMap<Long, JnaRegistration> live = new ConcurrentHashMap<>();
    private final AtomicLong lastId = new AtomicLong();
    private final AtomicLong staleNotifications = new AtomicLong();
    private final AtomicLong unhandledFailures = new AtomicLong();
    private final NativeEnableCallback callback = new Trampoline();

    private ProviderRegistry() {
        // ETW calls back on its own native threads: keep them attached (as daemons, named) instead of attaching
        // and detaching the JVM on every notification.
        Native.setCallbackThreadInitializer(callback, new CallbackThreadInitializer(true, false, "etw4j-jna-enable-callback"));
    }

    /** The native enable callback to pass to EventRegister. */
    NativeEnableCallback callback() {
        return callback;
    }

    /** A new, never used id. */
    long newId() {
        return lastId.incrementAndGet();
    }

    void put(long id, JnaRegistration registration) {
        live.put(id, registration);
    }

    void remove(long id) {
        live.remove(id);
    }

    /** Whether {@code id} is still in the table. */
    boolean contains(long id) {
        return live.containsKey(id);
    }

    /** Notifications that arrived with an id no longer (or never) in the table. */
    long staleNotifications() {
        return staleNotifications.get();
    }

    /** Throwables the registration's own handler could not take (should stay 0). */
    long unhandledFailures() {
        return unhandledFailures.get();
    }

    /** Entry point of every native notification; never throws. */
    private final class Trampoline implements NativeEnableCallback {
        @Override
        public void invoke(Pointer sourceId, int isEnabled, byte level, long matchAnyKeyword, long matchAllKeyword,
                           Pointer filterData, long callbackContext) {
            try {
                JnaRegistration r = live.get(callbackContext);
                if (r == null) {
                    staleNotifications.incrementAndGet();
                    return;
                }
                r.onNativeNotification(sourceId, isEnabled, level & 0xFF, matchAnyKeyword, matchAllKeyword, filterData);
            } catch (Throwable t) {
                // onNativeNotification catches everything itself; this is the last line before native code.
                unhandledFailures.incrementAndGet();
            }
        }
    }
}
