package org.etw4j.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.etw4j.Level;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Runs each test with a private real-time ETW session that enables {@link #providers()}, and injects what it
 * captured as a {@link CapturedEvents} parameter (of the test method, or of its {@code @BeforeEach} /
 * {@code @AfterEach} methods: one capture per test).
 *
 * <pre>{@code
 * @Test
 * @EtwTest(providers = "MyCompany-MyService", level = Level.INFORMATIONAL)
 * void logsTheRequest(CapturedEvents events) {
 *     service.handle("/index");
 *     events.assertThat().hasEvent("RequestDone").withField("status", 200).withField("path", "/index");
 * }
 * }</pre>
 *
 * <p>On a test class it applies to every test method; on a method it replaces the class's. The session is started
 * before the {@code @BeforeEach} methods run, on the process's default backend ({@code EtwBackends.getDefault()}:
 * the simulated ETW off Windows or with {@code -Detw4j.backend=simulated}; real ETW on Windows, where starting a
 * session needs an elevated process), and stopped after the {@code @AfterEach} methods, pass or fail. Its name is
 * unique per test ({@code etw4j-junit-...}). Tests naming the same provider never run at the same time under
 * JUnit's parallel execution (a read-write {@link ResourceLock} per provider): a session receives every process's
 * events of its providers, so two concurrent tests of one provider would see each other's events (JUnit 5.12+:
 * the per-provider locks need ResourceLocksProvider; on JUnit 5.10 and 5.11 {@code @EtwTest} works but takes no
 * per-provider lock, so run such tests sequentially, JUnit's default). A
 * {@link EtwCapture} parameter adds a capture with its own session and settings.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EtwExtension.class)
// value: JUnit before 5.12 requires it (ResourceLock had no providers element; without value it throws
// IncompleteAnnotationException and stops every test, issue 25). READ on that shared key excludes nothing; the
// per-provider locks come from providers, which JUnit 5.12+ reads and older versions skip (the JVM ignores an
// element its annotation type does not have: OpenJDK's AnnotationParser skips it), without loading ProviderLocks.
@ResourceLock(value = ProviderLocks.ALL_CAPTURES, mode = ResourceAccessMode.READ, providers = ProviderLocks.class)
public @interface EtwTest {
    /** Provider names (GUID derived the EventSource/TraceLogging way) or GUID texts. */
    String[] providers();

    /** The most detailed level the session enables ({@code EnableTraceEx2} Level; an event passes when its level is at most this). */
    Level level() default Level.VERBOSE;

    /** MatchAnyKeyword: an event's keyword must share a bit with it (all bits by default; keyword-0 events always pass). */
    long matchAnyKeyword() default -1L;

    /** MatchAllKeyword: an event's keyword must contain all its bits (none by default). */
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
