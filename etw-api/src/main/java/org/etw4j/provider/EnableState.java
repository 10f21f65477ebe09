package org.etw4j.provider;

/**
 * What the last enable notification told a provider: enabled, level, MatchAnyKeyword, MatchAllKeyword (MS Learn, PENABLECALLBACK callback function).
 *
 * <p>Immutable record; thread-safe. A provider publishes a new instance per notification through a volatile
 * field, so {@link #isEnabled(int, long)} is a plain read with no lock, no native call and no allocation.
 *
 * @param enabled         whether any session enables the provider
 * @param level           the recorded level (maximum over sessions; 0 enables every level)
 * @param matchAnyKeyword the recorded MatchAnyKeyword (OR over sessions)
 * @param matchAllKeyword the recorded MatchAllKeyword (AND over sessions)
 */
public record EnableState(boolean enabled, int level, long matchAnyKeyword, long matchAllKeyword) {

    /** The state before any notification: disabled. */
    public static final EnableState DISABLED = new EnableState(false, 0, 0L, 0L);

    /**
     * Whether an event of this level and keyword should be written: {@code MyProviderEventEnabled} in MS Learn, PENABLECALLBACK callback function, read
     * the way Windows' provider frameworks read it, where a recorded level of 0 means every level. Level 0 events
     * pass any level; keyword 0 events pass any keyword filter.
     *
     * <p>MS Learn's example on that page compares {@code eventLevel <= level} only, so a session enabling at level 0 (some
     * tools do by default) would get nothing but level-0 events. The frameworks most providers are written with
     * say otherwise, and this follows them: microsoft/tracelogging TraceLoggingDynamic.h (EnableCallback stores
     * {@code level != 0 ? level + 1 : 256}, IsEnabled tests {@code eventLevel < levelPlus1}) and mc.exe-generated
     * code ({@code McGenLevelKeywordEnabled}: {@code Level <= EnableInfo->Level || EnableInfo->Level == 0}).
     */
    public boolean isEnabled(int eventLevel, long eventKeyword) {
        return enabled
                && (eventLevel <= level || level == 0)
                && (eventKeyword == 0
                    || ((eventKeyword & matchAnyKeyword) != 0
                        && (eventKeyword & matchAllKeyword) == matchAllKeyword));
    }
}
