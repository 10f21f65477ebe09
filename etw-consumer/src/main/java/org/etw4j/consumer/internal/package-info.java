/**
 * Implementation of the consumer's read pipeline behind its public entry points (the one file pass,
 * {@link org.etw4j.consumer.internal.FilePass}; the bridge to {@code EventRecord}'s backend form; the .etl
 * writer's service provider). Not application API: not exported, and no other etw4j module names it (on the class
 * path, where JPMS does not stop them, {@code InternalPackagesTest} does); it changes without notice.
 */
package org.etw4j.consumer.internal;
