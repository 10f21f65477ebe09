package org.etw4j.provider;

/**
 * Receives a provider's enable notifications (enable, disable, capture state).
 *
 * <p>Runs on the provider's own notification thread, never on the thread that delivered the native callback
 * (MS Learn, PENABLECALLBACK callback function: that callback must return quickly and must not block), one notification at a time, in order. It may
 * block and may write events (typically in answer to {@link ControlCode#CAPTURE_STATE}). An exception it
 * throws is caught and counted, and later notifications still arrive. It never runs before the provider is
 * registered and has set its traits: a notification that arrives inside registration (Windows calls the enable
 * callback from EventRegister when a session already enables the provider) is delivered right after, while
 * {@link EtwProvider#isEnabled()} reflects it at once.
 */
@FunctionalInterface
public interface EnableListener {

    /**
     * @param provider     the provider notified (the CallbackContext of MS Learn, PENABLECALLBACK callback function)
     * @param notification what changed
     */
    void onNotification(EtwProvider provider, EnableNotification notification);
}
