package org.etw4j.junit;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Backend;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link EtwTest} and {@link EtwCapture}: starts a private real-time session per test
 * (per {@code @EtwCapture} parameter), resolves {@link CapturedEvents} parameters, and stops every session it
 * started when the test ends, whether it passed, failed or was aborted.
 *
 * <p>Stateless apart from a name counter; JUnit creates it and may call it from several threads at once
 * (parallel execution). Each capture lives in the test's {@link ExtensionContext.Store}, which closes it
 * after the {@code @AfterEach} methods. The backend is the process default
 * ({@link Backend#getDefault()}): the code under test registers its providers there too.
 */
public final class EtwExtension implements BeforeEachCallback, ParameterResolver {
    /** Every session this extension starts has a name beginning with this. */
    public static final String SESSION_PREFIX = "etw4j-junit-";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EtwExtension.class);
    private static final String TEST_CAPTURE = "test-capture";
    private static final AtomicLong SESSIONS = new AtomicLong();

    @Override
    public void beforeEach(ExtensionContext context) {
        Optional<EtwTest> config = testAnnotation(context);
        if (config.isPresent()) {
            CaptureSpec spec = CaptureSpec.of(config.get());
            context.getStore(NAMESPACE).getOrComputeIfAbsent(TEST_CAPTURE, k -> start(spec, context), StoredCapture.class);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == CapturedEvents.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException("CapturedEvents can be injected into test methods and their @BeforeEach/@AfterEach "
                    + "methods only (one capture per test), not into " + parameterContext.getDeclaringExecutable());
        }
        Optional<EtwCapture> own = parameterContext.findAnnotation(EtwCapture.class);
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (own.isPresent()) {
            CaptureSpec spec = CaptureSpec.of(own.get());
            String key = "parameter:" + parameterContext.getDeclaringExecutable() + "#" + parameterContext.getIndex();
            return store.getOrComputeIfAbsent(key, k -> start(spec, context), StoredCapture.class).capture();
        }
        StoredCapture test = store.get(TEST_CAPTURE, StoredCapture.class);
        if (test == null) {
            throw new ParameterResolutionException("a CapturedEvents parameter needs @EtwTest(providers = ...) on the test method or class, "
                    + "or @EtwCapture(providers = ...) on the parameter: " + parameterContext.getParameter()
                    + " of " + parameterContext.getDeclaringExecutable());
        }
        return test.capture();
    }

    /** The capture of the current test, if {@link EtwTest} started one (for other extensions and tests). */
    public static Optional<CapturedEvents> captureOf(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(TEST_CAPTURE, StoredCapture.class)).map(StoredCapture::capture);
    }

    private static StoredCapture start(CaptureSpec spec, ExtensionContext context) {
        Backend backend = Backend.getDefault();
        return new StoredCapture(CapturedEvents.start(spec, sessionName(context), backend));
    }

    /**
     * What the store holds: closed when the test's context closes. JUnit 5.13+ closes {@link AutoCloseable}
     * values; older versions (and 5.13 with {@code junit.jupiter.extensions.store.close.autocloseable.enabled=false})
     * close only {@code CloseableResource} ones, deprecated since 5.13, hence both (close is idempotent).
     */
    @SuppressWarnings("deprecation")
    private record StoredCapture(CapturedEvents capture) implements AutoCloseable, ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            capture.close();
        }
    }

    /** {@code etw4j-junit-<method>-<pid>-<n>}: unique in this process and among concurrent test JVMs. */
    static String sessionName(ExtensionContext context) {
        String method = context.getTestMethod().map(Method::getName).orElse("test");
        String safe = method.replaceAll("[^A-Za-z0-9_.]", "_");
        if (safe.length() > 48) {
            safe = safe.substring(0, 48);
        }
        return SESSION_PREFIX + safe + "-" + ProcessHandle.current().pid() + "-" + SESSIONS.incrementAndGet();
    }

    /** {@link EtwTest} on the method, else on the test class, its superclasses (inherited) or enclosing classes. */
    private static Optional<EtwTest> testAnnotation(ExtensionContext context) {
        Optional<EtwTest> onMethod = context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, EtwTest.class));
        if (onMethod.isPresent()) {
            return onMethod;
        }
        for (Class<?> c = context.getTestClass().orElse(null); c != null; c = c.getEnclosingClass()) {
            Optional<EtwTest> onClass = AnnotationSupport.findAnnotation(c, EtwTest.class);
            if (onClass.isPresent()) {
                return onClass;
            }
        }
        return Optional.empty();
    }
}
