package org.etw4j.junit;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.TraceSession;

/**
 * What one capture enables: providers (as written and resolved to GUIDs), the enable parameters, and the manifests
 * that decode their events. Immutable.
 */
record CaptureSpec(List<String> providerNames, List<Guid> providerIds, EnableParameters parameters, List<String> manifests) {

    static CaptureSpec of(EtwTest a) {
        return of(a.providers(), a.level().value(), a.matchAnyKeyword(), a.matchAllKeyword(), a.manifests());
    }

    static CaptureSpec of(EtwCapture a) {
        return of(a.providers(), a.level().value(), a.matchAnyKeyword(), a.matchAllKeyword(), a.manifests());
    }

    static CaptureSpec of(String[] providers, int level, long matchAny, long matchAll, String[] manifests) {
        if (providers.length == 0) {
            throw new IllegalArgumentException("@EtwTest/@EtwCapture names no provider: give providers = {\"MyCompany-MyService\"}");
        }
        List<String> names = List.of(providers);
        List<Guid> ids = names.stream().map(TraceSession::resolve).toList();
        EnableParameters p = EnableParameters.builder().level(level).matchAnyKeyword(matchAny).matchAllKeyword(matchAll).build();
        return new CaptureSpec(names, ids, p, List.of(manifests));
    }

    @Override
    public String toString() {
        return "providers " + providerNames + " at level " + parameters.level() + ", MatchAnyKeyword 0x"
                + Long.toHexString(parameters.matchAnyKeyword()) + ", MatchAllKeyword 0x" + Long.toHexString(parameters.matchAllKeyword());
    }
}
