package org.etw4j.spi;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.function.Supplier;
import org.etw4j.Guid;
import org.etw4j.ThreadActivityIds;

/**
 * The calling thread's activity id, the {@link ThreadActivityIds} every backend uses, shared with native code where
 * that is sound (issue 21, item 6):
 * <ul>
 *   <li><b>Platform threads</b>, on a backend that gives an {@link OsThreadActivityIds}: the id is ETW's own, per OS
 *       thread. {@link #set} sets it with {@code EventActivityIdControl}, so native code and Windows components on
 *       the thread see etw4j's activity, and {@link #get} reads it, so an id native code set is the parent of an
 *       etw4j activity started there; a write that names no id passes NULL ({@link #forWrite()}), and ETW puts in
 *       the thread's id itself. This is what .NET does: {@code ActivityTracker} calls
 *       {@code EventSource.SetCurrentThreadActivityId}, which sets the thread's ETW id (dotnet/runtime,
 *       ActivityTracker.cs and EventSource.cs).</li>
 *   <li><b>Virtual threads</b> (and backends without an OS store, the simulated one): the id is kept in Java, per
 *       Java thread, and passed explicitly to {@code EventWriteTransfer}. ETW's store belongs to the carrier, which
 *       a virtual thread leaves when it parks: an id set there would follow the carrier, be lost when the virtual
 *       thread resumes elsewhere and leak to the next virtual thread on that carrier. Native code on a carrier
 *       therefore neither sees nor changes a virtual thread's id.</li>
 * </ul>
 *
 * <p>Thread-safe; each call acts on the calling thread. A thread's id starts as GUID_NULL and is not inherited by
 * threads it starts (as ETW's). A {@link ThreadLocal} rather than a {@code ScopedValue}: the API is Java 17, and ids
 * are set and restored imperatively ({@link org.etw4j.provider.ActivityScope}).
 */
public final class JavaThreadActivityIds implements ThreadActivityIds {
    /** {@code Thread.isVirtual()} on Java 21+, null on Java 17 (no virtual threads there). */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private final ThreadLocal<Guid> current = ThreadLocal.withInitial(() -> Guid.NULL);
    private final Supplier<Guid> creator;
    private final OsThreadActivityIds osThread;

    /** Ids kept in Java only. @param creator {@code EventActivityIdControl(CREATE_ID)}, or the backend's equivalent */
    public JavaThreadActivityIds(Supplier<Guid> creator) {
        this(creator, null);
    }

    /**
     * @param creator  {@code EventActivityIdControl(CREATE_ID)}, or the backend's equivalent; may throw
     * @param osThread ETW's per-OS-thread id, used on platform threads; null to keep every id in Java
     */
    public JavaThreadActivityIds(Supplier<Guid> creator, OsThreadActivityIds osThread) {
        this.creator = Objects.requireNonNull(creator, "creator");
        this.osThread = osThread;
    }

    private boolean usesOsThread() {
        return osThread != null && !isVirtual(Thread.currentThread());
    }

    @Override
    public Guid get() {
        if (usesOsThread()) {
            try {
                return osThread.get();
            } catch (RuntimeException failed) {
                // EventActivityIdControl does not fail on Windows; a substitute that does falls back to Java's id
            }
        }
        return current.get();
    }

    @Override
    public Guid set(Guid activityId) {
        Guid id = activityId == null ? Guid.NULL : activityId;
        Guid previous = current.get();
        current.set(id); // kept on every thread: the fallback when the OS thread's store fails
        if (usesOsThread()) {
            try {
                return osThread.getAndSet(id);
            } catch (RuntimeException failed) {
                return previous;
            }
        }
        return previous;
    }

    /**
     * The ActivityId a write that names none passes to {@code EventWriteTransfer}: null on a platform thread whose
     * id ETW keeps (ETW then uses the OS thread's id, no extra call), else the Java id.
     */
    @Override
    public Guid forWrite() {
        return usesOsThread() ? null : current.get();
    }

    @Override
    public Guid create() {
        return creator.get();
    }

    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException java17) {
            return null;
        }
    }
}
