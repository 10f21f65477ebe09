package org.etw4j.junit;

import java.util.List;
import org.etw4j.Guid;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.TraceSession;

/**
 * What one capture enables: providers (as written and resolved to GUIDs), the enable parameters, and the manifests
 * that decode their events. Immutable.
 */
record CaptureSpec(List<String> providerNames, List<Guid> providerIds, EnableParameters parameters, List<String> manifests,
                   boolean privateSession) {
    /** How long starting a capture waits for the providers' enable callbacks. */
    static final java.time.Duration CALLBACK_WAIT = java.time.Duration.ofSeconds(10);

    static CaptureSpec of(EtwTest a) {
        return of(a.providers(), a.level().value(), a.matchAnyKeyword(), a.matchAllKeyword(), a.manifests(), a.privateSession());
    }

    static CaptureSpec of(EtwCapture a) {
        return of(a.providers(), a.level().value(), a.matchAnyKeyword(), a.matchAllKeyword(), a.manifests(), a.privateSession());
    }

    static CaptureSpec of(String[] providers, int level, long matchAny, long matchAll, String[] manifests,
                          boolean privateSession) {
        if (providers.length == 0) {
            throw new IllegalArgumentException("@EtwTest/@EtwCapture names no provider: give providers = {\"MyCompany-MyService\"}");
        }
        List<String> names = List.of(providers);
        List<Guid> ids = names.stream().map(TraceSession::resolve).toList();
        // The test body writes as soon as the capture starts: the enable waits until the providers (this process's
        // included) have seen it, which Windows does only when asked (EnableTraceEx2 Timeout; issue 21, item 4).
        EnableParameters p = EnableParameters.builder().level(level).matchAnyKeyword(matchAny).matchAllKeyword(matchAll)
                .waitForCallbacks(CALLBACK_WAIT).build();
        return new CaptureSpec(names, ids, p, List.of(manifests), privateSession);
    }

    @Override
    public String toString() {
        return "providers " + providerNames + " at level " + parameters.level() + ", MatchAnyKeyword 0x"
                + Long.toHexString(parameters.matchAnyKeyword()) + ", MatchAllKeyword 0x" + Long.toHexString(parameters.matchAllKeyword())
                + (privateSession ? ", private in-process session" : "");
    }
}
