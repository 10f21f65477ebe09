package org.etw4j.spi;

import java.util.Objects;
import java.util.function.Supplier;
import org.etw4j.Guid;

/**
 * The calling thread's activity id kept in Java, the one {@link ThreadActivityIds} every backend uses: ETW's own
 * store ({@code EventActivityIdControl}) is per OS thread, so on a virtual thread it would follow the carrier,
 * losing the id when the virtual thread resumes elsewhere and leaking it to the next virtual thread on that
 * carrier (MS Learn, EventActivityIdControl, Remarks: "user-mode threads have a thread-local 128-bit activity
 * ID"). A backend writes {@link #get()} explicitly into {@code EventWriteTransfer}'s ActivityId when a write
 * names none, and asks {@code EventActivityIdControl} only to create ids (the {@code creator}).
 *
 * <p>Thread-safe; each call acts on the calling thread, platform or virtual. A thread's id starts as GUID_NULL and
 * is not inherited by threads it starts (as ETW's). A {@link ThreadLocal} rather than a {@code ScopedValue}: the
 * API is Java 17, and ids are set and restored imperatively ({@link org.etw4j.provider.ActivityScope}). Native
 * code on the same OS thread that sets ETW's thread id does not change what etw4j's events carry.
 */
public final class JavaThreadActivityIds implements ThreadActivityIds {
    private final ThreadLocal<Guid> current = ThreadLocal.withInitial(() -> Guid.NULL);
    private final Supplier<Guid> creator;

    /** @param creator {@code EventActivityIdControl(CREATE_ID)}, or the backend's equivalent; may throw */
    public JavaThreadActivityIds(Supplier<Guid> creator) {
        this.creator = Objects.requireNonNull(creator, "creator");
    }

    @Override
    public Guid get() {
        return current.get();
    }

    @Override
    public Guid set(Guid activityId) {
        Guid previous = current.get();
        current.set(activityId == null ? Guid.NULL : activityId);
        return previous;
    }

    @Override
    public Guid create() {
        return creator.get();
    }
}
