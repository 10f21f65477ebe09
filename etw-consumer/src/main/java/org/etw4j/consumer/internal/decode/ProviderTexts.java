package org.etw4j.consumer.internal.decode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.etw4j.Guid;

/**
 * Names of providers nothing in the trace describes ({@link ProviderNames#nameOrId}), with their "no schema" note: such events come by the thousand
 * from one provider, and formatting the GUID each time was a good part of their cost. Bounded (a trace can name
 * any number of providers); past the bound the text is built per call. Thread-safe.
 */
final class ProviderTexts {

    /** A provider GUID's text and the "no schema" note naming it. */
    private record ProviderText(String text, List<String> noSchemaNote) {
    }

    private final Map<Guid, ProviderText> texts = new ConcurrentHashMap<>();

    private ProviderText of(Guid provider) {
        ProviderText t = texts.get(provider);
        if (t == null) {
            String text = ProviderNames.nameOrId(provider);
            String id = provider.toString();
            t = new ProviderText(text, List.of("no schema for provider " + (text.equals(id) ? id : text + " (" + id + ")")));
            if (texts.size() < 4096) {
                texts.putIfAbsent(provider, t);
            }
        }
        return t;
    }

    /** {@link ProviderNames#nameOrId}, cached. */
    String text(Guid provider) {
        return of(provider).text();
    }

    /** The note of an event whose provider nothing describes. */
    List<String> noSchemaNote(Guid provider) {
        return of(provider).noSchemaNote();
    }
}
