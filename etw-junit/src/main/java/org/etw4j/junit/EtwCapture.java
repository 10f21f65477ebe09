package org.etw4j.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.etw4j.Level;

/**
 * On a {@link CapturedEvents} parameter: a capture of its own, with its own session and settings, beside (or
 * without) the test's {@link EtwTest} capture. Two parameters so annotated get two sessions, e.g. one at
 * {@code WARNING} and one at {@code VERBOSE} to check what each receives.
 *
 * <pre>{@code
 * @Test
 * @ExtendWith(EtwExtension.class)
 * void warningSessionSeesNoInfo(@EtwCapture(providers = "MyService", level = Level.WARNING) CapturedEvents warnings,
 *                               @EtwCapture(providers = "MyService") CapturedEvents all) { ... }
 * }</pre>
 *
 * <p>The session is started when the parameter is resolved (just before the method that declares it runs) and
 * stopped when the test ends. Parallel tests naming the same provider here are serialized like {@link EtwTest}'s
 * when the method also carries {@code @EtwTest}; with {@code @ExtendWith(EtwExtension.class)} alone, add
 * {@code @ResourceLock(providers = ProviderLocks.class)} to get that.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface EtwCapture {
    /** Provider names or GUID texts. */
    String[] providers();

    /** The most detailed level the session enables. */
    Level level() default Level.VERBOSE;

    /** MatchAnyKeyword (all bits by default). */
    long matchAnyKeyword() default -1L;

    /** MatchAllKeyword (none by default). */
    long matchAllKeyword() default 0L;

    /**
     * Instrumentation manifests ({@code .man}) describing the providers' manifest-style events, so they decode to
     * names and fields (TraceLogging events need none): file paths, or {@code classpath:} and a resource name
     * ({@code "classpath:com/example/my-service.man"}).
     */
    String[] manifests() default {};

    /**
     * Capture through a private in-process session (EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC)
     * instead of a real-time one: on Windows 10 1703 and later it needs no elevation, and it records only providers
     * registered in this test's process. It writes a temporary .etl file that each wait re-reads (flush, then read
     * the whole file: fine for a test's few thousand events, not for more); off by default.
     */
    boolean privateSession() default false;
}
