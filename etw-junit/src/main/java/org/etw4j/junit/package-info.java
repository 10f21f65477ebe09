/**
 * etw4j for JUnit 5: {@link org.etw4j.junit.EtwTest} runs a test with a private real-time session for the
 * providers it names and injects what it captured, {@link org.etw4j.junit.CapturedEvents}, with fluent
 * assertions ({@link org.etw4j.junit.EventsAssert}, {@link org.etw4j.junit.EventAssert}).
 *
 * <p>Entry point: {@code @EtwTest(providers = ...)} on a test, or {@code @EtwCapture} on a parameter; both use
 * {@link org.etw4j.junit.EtwExtension}. Threading: {@code CapturedEvents} is thread-safe; events arrive on the
 * stream's delivery thread and every reading method first synchronizes with the session, so no test sleeps.
 * Reuse: the captured events are copies, kept until the test ends. Close: the extension stops each session and
 * its stream when the test ends, pass or fail; {@code CapturedEvents.close()} is idempotent.
 */
package org.etw4j.junit;
