package org.etw4j.spi;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.provider.FilterData;

/**
 * {@code PENABLECALLBACK} as a backend delivers it to a registered provider (MS Learn, PENABLECALLBACK callback function).
 *
 * <p>Called by the backend on its own thread (ETW's notification thread on Windows); implementations must
 * return quickly, must not block on locks or call session control APIs, and must not throw (a backend catches
 * and records anything thrown, because on Windows an exception escaping an upcall kills the JVM).
 */
@FunctionalInterface
public interface EnableCallback {

    /**
     * One notification.
     *
     * @param controlCode     0 disable, 1 enable, 2 capture state; other values must be ignored
     * @param sourceId        the session's SourceId, GUID_NULL when there is none
     * @param level           the maximum level over the enabling sessions
     * @param matchAnyKeyword the OR of the sessions' MatchAnyKeyword
     * @param matchAllKeyword the AND of the sessions' MatchAllKeyword
     * @param filters         filter data, one per session that gave some, copied (valid after the call)
     */
    void onNotification(int controlCode, Guid sourceId, int level, long matchAnyKeyword, long matchAllKeyword,
                        List<FilterData> filters);
}
