package org.etw4j.consumer.internal.decode;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.etw4j.Guid;
import org.etw4j.controller.ProviderResolution;

/**
 * Which providers' events to show, from names or GUIDs as a user writes them ({@code etw dump --provider},
 * {@code etw timeline --providers}, {@code Timeline.Options.providers}).
 *
 * <p>Immutable after construction; thread-safe. An event passes when no provider was given, when its provider
 * GUID is one given, or the one a name given resolves to off a machine's registrations
 * ({@link ProviderResolution}: a well-known provider's GUID, such as Microsoft-Windows-DotNETRuntime's, else the
 * GUID EventSource and TraceLogging derive from the name), or when its provider name ({@link ProviderNames}'
 * rule: the trace's metadata, the manifests given, ...) equals a name given, ignoring case.
 */
public final class ProviderSelection {
    private final Set<Guid> ids = new HashSet<>();
    private final Set<String> names = new HashSet<>();

    /**
     * A selection of {@code providers} (GUIDs, optionally in braces, or names); empty: every provider.
     *
     * @throws IllegalArgumentException when one is blank
     */
    public ProviderSelection(List<String> providers) {
        for (String p : providers) {
            String t = p.trim();
            if (t.startsWith("{") && t.endsWith("}")) {
                t = t.substring(1, t.length() - 1);
            }
            if (t.isEmpty()) {
                throw new IllegalArgumentException("a provider selection needs a name or GUID, not '" + p + "'");
            }
            ProviderResolution r = ProviderResolution.resolve(t, Map.of(), Map.of());
            ids.add(r.id());
            if (r.rule() != ProviderResolution.Rule.GUID) {
                names.add(t.toLowerCase(Locale.ROOT));
            }
        }
    }

    /** Whether every provider passes. */
    public boolean isEmpty() {
        return ids.isEmpty();
    }

    /** Whether a name match is possible (then events must be decoded before they can be rejected). */
    public boolean hasNames() {
        return !names.isEmpty();
    }

    /** Whether the provider GUID alone lets the event through. */
    public boolean acceptsId(Guid provider) {
        return ids.isEmpty() || ids.contains(provider);
    }

    /** Whether the decoded event passes. */
    public boolean accepts(DecodedEvent e) {
        return accepts(e.providerId(), e.providerName());
    }

    /** Whether the event in {@code view} passes. */
    public boolean accepts(EventView view) {
        return ids.isEmpty() || accepts(view.providerId(), view.providerName());
    }

    private boolean accepts(Guid id, String name) {
        return ids.isEmpty() || ids.contains(id) || (name != null && names.contains(name.toLowerCase(Locale.ROOT)));
    }
}
