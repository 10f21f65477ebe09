/**
 * etw4j's own helpers shared by its packages; not exported, not API.
 */
package org.etw4j.internal;
