package org.etw4j.logging;

/**
 * Where a bridge reports its own failures: the framework's status mechanism (Logback's StatusManager, Log4j2's
 * ErrorHandler, JUL's ErrorManager). Called on the logging thread; must not throw (what it throws is ignored).
 */
@FunctionalInterface
public interface FailureReporter {
    /** Reports a failure; {@code cause} may be null. */
    void report(String message, Throwable cause);
}
