/**
 * etw4j's values: {@link org.etw4j.Guid}, {@link org.etw4j.EventDescriptor}, {@link org.etw4j.Level},
 * {@link org.etw4j.Opcode}, {@link org.etw4j.Keywords}, {@link org.etw4j.ActivityId} and the typed error
 * {@link org.etw4j.EtwException} with its {@link org.etw4j.Win32Error} codes.
 *
 * <p>Entry point: none of its own; these are the values the provider, TraceLogging and controller APIs take and
 * return. Threading and reuse: immutable values (records and enums), thread-safe, freely shared and kept. Nothing
 * here holds a native resource, so nothing is closed.
 */
package org.etw4j;
