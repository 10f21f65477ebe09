package org.etw4j.controller;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.tracelogging.ProviderIds;

/**
 * A provider name or GUID text resolved to the GUID a session enables, with the rule that chose it.
 *
 * <p>Immutable record; thread-safe. The rules, first match wins, as TraceEvent resolves names
 * ({@code TraceEventProviders.GetProviderGuidByName}, then the EventSource hash):
 * <ol>
 *   <li>{@link Rule#GUID}: the text is a GUID (with or without braces);</li>
 *   <li>{@link Rule#REGISTERED}: a provider registered on the machine has that name (ignoring case), as
 *       {@code TdhEnumerateProviders} lists them on Windows (manifest and MOF providers: Microsoft-Windows-*,
 *       the CLR, installed applications); the simulated backend lists the providers installed on it;</li>
 *   <li>{@link Rule#MANIFEST}: a manifest the user gave names a provider of that name (ignoring case);</li>
 *   <li>{@link Rule#WELL_KNOWN}: {@link WellKnownProviders} knows the name (the CLR's providers, the common
 *       Microsoft-Windows-Kernel-* ones, ...): what resolves such names off Windows and where a machine does not
 *       list them;</li>
 *   <li>{@link Rule#NAME_HASH}: the GUID EventSource and TraceLogging derive from the name
 *       ({@link ProviderIds#fromName}), right for such providers, which Windows does not list.</li>
 * </ol>
 * A {@code Microsoft-Windows-} name that only the hash resolves carries a {@link #warning()}: Windows' own providers
 * are manifest-registered with GUIDs of their own, so that GUID is almost surely one nobody registered, and a
 * session enabling it would record nothing.
 *
 * @param text    the name or GUID text as given (trimmed)
 * @param id      the GUID to enable
 * @param rule    which rule chose it
 * @param warning why the result is probably not what was meant, or null
 */
public record ProviderResolution(String text, Guid id, Rule rule, String warning) {

    /** The rule that chose a GUID. */
    public enum Rule {
        /** The text was a GUID. */
        GUID("a GUID"),
        /** A provider registered on the machine has the name (TdhEnumerateProviders on Windows). */
        REGISTERED("registered on this machine"),
        /** A manifest the user gave names the provider. */
        MANIFEST("named in a given manifest"),
        /** A provider etw4j's table of well-known providers names ({@link WellKnownProviders}). */
        WELL_KNOWN("a well-known provider"),
        /** Derived from the name, the EventSource/TraceLogging way. */
        NAME_HASH("derived from the name (EventSource/TraceLogging hash)");

        private final String description;

        Rule(String description) {
            this.description = description;
        }

        /** In words, e.g. "registered on this machine". */
        public String description() {
            return description;
        }
    }

    public ProviderResolution {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(rule, "rule");
    }

    /** The prefix of Windows' own manifest-registered providers. */
    static final String WINDOWS_PREFIX = "microsoft-windows-";

    /**
     * Resolves {@code text} by the rules of the class comment.
     *
     * @param registered the providers registered on the machine, name to GUID (may be empty)
     * @param manifests  the providers of the manifests the user gave, name to GUID (may be empty)
     */
    public static ProviderResolution resolve(String text, Map<String, Guid> registered, Map<String, Guid> manifests) {
        String t = Objects.requireNonNull(text, "provider").trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("provider name is empty");
        }
        String unbraced = t.startsWith("{") && t.endsWith("}") ? t.substring(1, t.length() - 1) : t;
        try {
            return new ProviderResolution(t, Guid.parse(unbraced), Rule.GUID, null);
        } catch (IllegalArgumentException notAGuid) {
            // a name
        }
        Guid found = lookup(registered, t);
        if (found != null) {
            return new ProviderResolution(t, found, Rule.REGISTERED, null);
        }
        found = lookup(manifests, t);
        if (found != null) {
            return new ProviderResolution(t, found, Rule.MANIFEST, null);
        }
        found = WellKnownProviders.idOf(t).orElse(null);
        if (found != null) {
            return new ProviderResolution(t, found, Rule.WELL_KNOWN, null);
        }
        Guid hashed = ProviderIds.fromName(t);
        String warning = null;
        if (t.toLowerCase(Locale.ROOT).startsWith(WINDOWS_PREFIX)) {
            warning = "'" + t + "' is not registered on this machine" + (manifests.isEmpty() ? "" : " nor in the given manifests")
                    + ": its GUID " + hashed + " was derived from the name, which Windows' own providers do not use, so a"
                    + " session enabling it will probably record nothing. Check the name (logman query providers), or"
                    + " give the provider's GUID or its manifest";
        }
        return new ProviderResolution(t, hashed, Rule.NAME_HASH, warning);
    }

    private static Guid lookup(Map<String, Guid> providers, String name) {
        if (providers == null || providers.isEmpty()) {
            return null;
        }
        Guid exact = providers.get(name);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, Guid> e : providers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) { // ignoring case, as users type names
                return e.getValue();
            }
        }
        return null;
    }

    /** One line for logs and the CLI: {@code NAME -> GUID (RULE)}. */
    public String describe() {
        return rule == Rule.GUID ? "provider " + id + " (a GUID)" : "provider " + text + " -> " + id + " (" + rule.description() + ")";
    }
}
