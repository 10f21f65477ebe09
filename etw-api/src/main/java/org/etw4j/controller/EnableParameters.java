package org.etw4j.controller;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.etw4j.Guid;
import org.etw4j.Keywords;
import org.etw4j.Level;

/**
 * How a session enables one provider: {@code EnableTraceEx2} level, MatchAnyKeyword, MatchAllKeyword and
 * {@code ENABLE_TRACE_PARAMETERS} (enable properties, source id, filters).
 *
 * <p>Immutable record; thread-safe; reusable across sessions. Validated on construction: level 0-255, at most
 * {@link EventFilter#MAX_FILTERS} filters and at most one of each system filter type. A session accepts an event
 * when {@code event.level <= level || level == 0} and {@code keyword == 0 || ((keyword & matchAny) != 0 &&
 * (keyword & matchAll) == matchAll)} (MS Learn, EVENT_DESCRIPTOR structure; level 0 admits every level, as Windows and its provider frameworks
 * read it), then the filters.
 *
 * @param level           most detailed level wanted (0-255; 0 means every level, as in Windows' provider frameworks)
 * @param matchAnyKeyword an event's keyword must share a bit with this mask
 * @param matchAllKeyword an event's keyword must contain all bits of this mask
 * @param properties      {@code EVENT_ENABLE_PROPERTY_*} flags
 * @param sourceId        the SourceId the provider's enable callback sees, or null for the session's GUID
 * @param filters         per-session filters
 */
public record EnableParameters(int level, long matchAnyKeyword, long matchAllKeyword, Set<EnableProperty> properties,
                               Guid sourceId, List<EventFilter> filters) {

    public EnableParameters {
        Level.checkLevel("EnableParameters.level", level);
        properties = properties == null || properties.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(properties));
        filters = filters == null ? List.of() : List.copyOf(filters);
        if (filters.size() > EventFilter.MAX_FILTERS) {
            throw new IllegalArgumentException("EnableParameters.filters: at most " + EventFilter.MAX_FILTERS
                    + " filters per enable call (MAX_EVENT_FILTERS_COUNT), got " + filters.size());
        }
        Set<Class<?>> seen = new HashSet<>();
        for (EventFilter f : filters) {
            Objects.requireNonNull(f, "EnableParameters.filters contains null");
            if (!(f instanceof EventFilter.Custom) && !seen.add(f.getClass())) {
                throw new IllegalArgumentException("EnableParameters.filters: only one " + f.getClass().getSimpleName()
                        + " filter per enable call");
            }
        }
        if (filters.stream().filter(f -> f instanceof EventFilter.Custom).count() > 1) {
            throw new IllegalArgumentException("EnableParameters.filters: one session can give a provider only one custom filter (MS Learn, PENABLECALLBACK callback function)");
        }
    }

    /** Every event at or below {@code level}, any keyword. */
    public static EnableParameters of(Level level) {
        return builder().level(level).build();
    }

    /** Events at or below {@code level} sharing a bit with {@code matchAnyKeyword}. */
    public static EnableParameters of(Level level, long matchAnyKeyword) {
        return builder().level(level).matchAnyKeyword(matchAnyKeyword).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether {@code property} is set. */
    public boolean has(EnableProperty property) {
        return properties.contains(property);
    }

    /** The {@code EnableProperty} bit mask. */
    public int propertyMask() {
        return EnableProperty.mask(properties);
    }

    /** The first filter of the given type, or null. */
    public <T extends EventFilter> T filter(Class<T> type) {
        for (EventFilter f : filters) {
            if (type.isInstance(f)) {
                return type.cast(f);
            }
        }
        return null;
    }

    /**
     * Builds {@link EnableParameters}. Defaults: level VERBOSE (5), MatchAnyKeyword all bits, MatchAllKeyword 0,
     * no properties, no filters.
     *
     * <p>Not thread-safe; reusable.
     */
    public static final class Builder {
        private int level = Level.VERBOSE.value();
        private long any = Keywords.ALL.mask();
        private long all;
        private final Set<EnableProperty> properties = EnumSet.noneOf(EnableProperty.class);
        private Guid sourceId;
        private final List<EventFilter> filters = new ArrayList<>();

        public Builder level(Level l) {
            this.level = l.value();
            return this;
        }

        public Builder level(int l) {
            this.level = l;
            return this;
        }

        public Builder matchAnyKeyword(long mask) {
            this.any = mask;
            return this;
        }

        public Builder matchAllKeyword(long mask) {
            this.all = mask;
            return this;
        }

        public Builder property(EnableProperty p) {
            properties.add(p);
            return this;
        }

        public Builder properties(Collection<EnableProperty> ps) {
            properties.addAll(ps);
            return this;
        }

        public Builder sourceId(Guid id) {
            this.sourceId = id;
            return this;
        }

        public Builder filter(EventFilter f) {
            filters.add(f);
            return this;
        }

        public EnableParameters build() {
            return new EnableParameters(level, any, all, properties, sourceId, filters);
        }
    }
}
