package org.etw4j.provider;

/**
 * What the last enable notification told a provider: enabled, level, MatchAnyKeyword, MatchAllKeyword (seed 000).
 *
 * <p>Immutable record; thread-safe. A provider publishes a new instance per notification through a volatile
 * field, so {@link #isEnabled(int, long)} is a plain read with no lock, no native call and no allocation.
 *
 * @param enabled         whether any session enables the provider
 * @param level           the recorded level (maximum over sessions)
 * @param matchAnyKeyword the recorded MatchAnyKeyword (OR over sessions)
 * @param matchAllKeyword the recorded MatchAllKeyword (AND over sessions)
 */
public record EnableState(boolean enabled, int level, long matchAnyKeyword, long matchAllKeyword) {

    /** The state before any notification: disabled. */
    public static final EnableState DISABLED = new EnableState(false, 0, 0L, 0L);

    /**
     * Seed 000's {@code MyProviderEventEnabled}: whether an event of this level and keyword should be written.
     * Level 0 events pass any level; keyword 0 events pass any keyword filter.
     */
    public boolean isEnabled(int eventLevel, long eventKeyword) {
        return enabled
                && eventLevel <= level
                && (eventKeyword == 0
                    || ((eventKeyword & matchAnyKeyword) != 0
                        && (eventKeyword & matchAllKeyword) == matchAllKeyword));
    }
}
