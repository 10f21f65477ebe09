package org.etw4j.junit;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.etw4j.Guid;
import org.etw4j.controller.TraceSession;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * One JUnit resource lock per provider a test captures ({@code etw4j.provider:<guid>}, read-write), so parallel
 * tests of the same provider run one after the other while the others run concurrently. Why: ETW delivers a
 * provider's events to every session enabling it, so a test capturing {@code MyService} would also capture the
 * events of another test exercising {@code MyService} at the same moment. Keys use the resolved GUID, so a name
 * and its GUID text lock the same resource.
 *
 * <p>Stateless; JUnit instantiates it. Applied by {@link EtwTest}; usable in {@code @ResourceLock(providers = ...)}.
 */
public final class ProviderLocks implements ResourceLocksProvider {
    /**
     * The key every {@link EtwTest} holds in READ mode: a value JUnit before 5.12 requires in {@code @ResourceLock};
     * READ locks do not exclude each other, so it orders nothing.
     */
    public static final String ALL_CAPTURES = "etw4j.captures";

    /** The prefix of the lock keys. */
    public static final String KEY_PREFIX = "etw4j.provider:";

    @Override
    public Set<Lock> provideForClass(Class<?> testClass) {
        EtwTest a = testClass.getAnnotation(EtwTest.class);
        return a == null ? Set.of() : locks(a.providers());
    }

    @Override
    public Set<Lock> provideForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> testClass) {
        return provideForClass(testClass);
    }

    @Override
    public Set<Lock> provideForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
        Set<Lock> locks = new LinkedHashSet<>();
        EtwTest a = testMethod.getAnnotation(EtwTest.class);
        if (a != null) {
            locks.addAll(locks(a.providers()));
        }
        for (Parameter p : testMethod.getParameters()) {
            EtwCapture c = p.getAnnotation(EtwCapture.class);
            if (c != null) {
                locks.addAll(locks(c.providers()));
            }
        }
        return locks;
    }

    /** The lock key of a provider (name or GUID text). */
    public static String key(String provider) {
        Guid id = TraceSession.resolve(provider);
        return KEY_PREFIX + id;
    }

    private static Set<Lock> locks(String[] providers) {
        Set<Lock> locks = new LinkedHashSet<>();
        for (String p : providers) {
            locks.add(new Lock(key(p), ResourceAccessMode.READ_WRITE));
        }
        return locks;
    }
}
