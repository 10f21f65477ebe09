package org.etw4j.nativebindings.windows;

import java.util.Objects;

/**
 * A throwable caught inside an FFM upcall (enable callback, event record callback, buffer callback), where it
 * must not escape: an exception unwinding into native code ends the JVM.
 *
 * <p>Immutable record; thread-safe. The backend records it inside the upcall and reports it once the downcall
 * that led to the upcall has returned (on the thread that made the downcall), or at the next downcall for
 * upcalls that ETW makes on its own threads.
 *
 * @param upcall     which upcall failed, e.g. {@code PENABLECALLBACK} or {@code PEVENT_RECORD_CALLBACK}
 * @param subject    what it was for (a provider id, a session name)
 * @param error      what was thrown
 * @param threadName the thread the upcall ran on
 */
public record UpcallFailure(String upcall, String subject, Throwable error, String threadName) {
    public UpcallFailure {
        Objects.requireNonNull(upcall, "upcall");
        Objects.requireNonNull(error, "error");
    }

    @Override
    public String toString() {
        return upcall + " for " + subject + " threw " + error + " on thread " + threadName;
    }
}
