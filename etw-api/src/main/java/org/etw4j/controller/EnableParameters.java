package org.etw4j.controller;

import java.time.Duration;
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
 * @param callbackWait    how long enabling waits for the providers' enable callbacks ({@code EnableTraceEx2}'s
 *                        Timeout); {@link Duration#ZERO}, the default, does not wait (see {@link
 *                        Builder#waitForCallbacks})
 */
public record EnableParameters(int level, long matchAnyKeyword, long matchAllKeyword, Set<EnableProperty> properties,
                               Guid sourceId, List<EventFilter> filters, Duration callbackWait) {

    /** The longest {@link #callbackWait}: {@code EnableTraceEx2}'s Timeout is a ULONG of milliseconds below INFINITE. */
    public static final Duration MAX_CALLBACK_WAIT = Duration.ofMillis(0xFFFF_FFFEL);

    public EnableParameters {
        Level.checkLevel("EnableParameters.level", level);
        callbackWait = callbackWait == null ? Duration.ZERO : callbackWait;
        if (callbackWait.isNegative() || callbackWait.compareTo(MAX_CALLBACK_WAIT) > 0) {
            throw new IllegalArgumentException("EnableParameters.callbackWait: 0 to " + MAX_CALLBACK_WAIT.toMillis()
                    + " ms, got " + callbackWait);
        }
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

    /** The parameters without waiting for callbacks: the form every release before issue 21 used. */
    public EnableParameters(int level, long matchAnyKeyword, long matchAllKeyword, Set<EnableProperty> properties,
                            Guid sourceId, List<EventFilter> filters) {
        this(level, matchAnyKeyword, matchAllKeyword, properties, sourceId, filters, Duration.ZERO);
    }

    /** These parameters with another {@link #callbackWait} (see {@link Builder#waitForCallbacks}). */
    public EnableParameters withCallbackWait(Duration wait) {
        return new EnableParameters(level, matchAnyKeyword, matchAllKeyword, properties, sourceId, filters, wait);
    }

    /** Whether enabling waits for the providers' callbacks. */
    public boolean waitsForCallbacks() {
        return !callbackWait.isZero();
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
     * no properties, no filters, no waiting for callbacks.
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
        private Duration callbackWait = Duration.ZERO;

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

        /**
         * Makes enabling wait, up to {@code wait}, until every provider of the machine has seen the change (its
         * enable callback returned): {@code EnableTraceEx2}'s Timeout. MS Learn, EnableTraceEx2: "If Timeout is 0,
         * this function will start configuring the provider asynchronously and will return immediately";
         * otherwise it waits "for all provider callbacks to complete", answering ERROR_TIMEOUT when one is slower
         * (etw4j then logs a warning: the change was made). The default, zero, is what krabsetw, ferrisetw and
         * TraceEvent pass. The cost of waiting: each enable, disable and capture-state of a session blocks for as
         * long as the slowest callback of any process that registered the provider (a hung process makes every
         * call take the whole wait). Use it when a test or a tool needs "the provider is enabled when enable
         * returns". The simulated backend runs callbacks on a notification thread as Windows does (issue 21, item 8):
         * there, the wait means "the callbacks of every provider registered on the machine have run".
         */
        public Builder waitForCallbacks(Duration wait) {
            this.callbackWait = java.util.Objects.requireNonNull(wait, "wait");
            return this;
        }

        public EnableParameters build() {
            return new EnableParameters(level, any, all, properties, sourceId, filters, callbackWait);
        }
    }
}
