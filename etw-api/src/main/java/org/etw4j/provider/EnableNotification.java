package org.etw4j.provider;

import java.util.List;
import org.etw4j.Guid;

/**
 * One enable notification as a provider's listeners receive it (the parameters of EnableCallback: MS Learn, PENABLECALLBACK callback function).
 *
 * <p>Immutable record; thread-safe. The filter data is a copy, valid after the callback (MS Learn, PENABLECALLBACK callback function says the
 * native data is not).
 *
 * @param controlCode     what happened
 * @param sourceId        the session's SourceId; GUID_NULL when the notification has none (for example when the
 *                        provider registers after a session enabled it)
 * @param level           maximum level over the enabling sessions
 * @param matchAnyKeyword OR of their MatchAnyKeyword
 * @param matchAllKeyword AND of their MatchAllKeyword
 * @param filters         filter data, one per session that gave some
 * @param state           the provider's enable state after this notification
 */
public record EnableNotification(ControlCode controlCode, Guid sourceId, int level, long matchAnyKeyword,
                                 long matchAllKeyword, List<FilterData> filters, EnableState state) {
    public EnableNotification {
        filters = List.copyOf(filters);
    }
}
