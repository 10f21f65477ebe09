package org.etw4j.cli;

import java.util.Locale;
import java.util.Map;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.controller.EnableParameters;
import org.etw4j.controller.ProviderResolution;
import org.etw4j.controller.TraceSession;
import org.etw4j.spi.EtwBackend;

/**
 * A provider to enable, as given on the command line: {@code NAME_OR_GUID[:LEVEL[:KEYWORDS]]}.
 *
 * <p>Immutable record; thread-safe. {@code LEVEL} is a number 0-255 or a level name ({@code critical},
 * {@code error}, {@code warning}, {@code informational} or {@code info}, {@code verbose}); default verbose.
 * {@code KEYWORDS} is the MatchAnyKeyword mask, hexadecimal with {@code 0x} or decimal; default all bits.
 * A name that is not a GUID is resolved when the session starts ({@link #resolve}): a provider registered on the
 * machine (TdhEnumerateProviders on Windows), else one of the manifests the CLI knows (its demo provider's and the
 * {@code --manifest} files), else the GUID EventSource and TraceLogging derive from the name, which {@link #id()}
 * holds until then.
 *
 * @param text     the provider as written (name or GUID)
 * @param id       the provider GUID as parsed: the GUID given, or the name's EventSource/TraceLogging hash
 * @param level    the level to enable
 * @param keywords the MatchAnyKeyword mask
 */
public record ProviderSpec(String text, Guid id, int level, long keywords) {

    /** Parses {@code NAME_OR_GUID[:LEVEL[:KEYWORDS]]}; throws IllegalArgumentException with a readable message. */
    public static ProviderSpec parse(String spec) {
        String s = spec.trim();
        String[] parts = s.split(":", -1);
        if (parts.length > 3 || parts[0].isBlank()) {
            throw new IllegalArgumentException("provider '" + spec + "': expected NAME_OR_GUID[:LEVEL[:KEYWORDS]]");
        }
        String name = parts[0].trim();
        if (name.startsWith("{") && name.endsWith("}")) {
            name = name.substring(1, name.length() - 1);
        }
        int level = parts.length > 1 && !parts[1].isBlank() ? level(parts[1].trim(), spec) : Level.VERBOSE.value();
        long keywords = parts.length > 2 && !parts[2].isBlank() ? keywords(parts[2].trim(), spec) : -1L;
        return new ProviderSpec(name, TraceSession.resolve(name), level, keywords);
    }

    /**
     * The GUID to enable on {@code backend}'s machine, with the rule that chose it (issue 21, item 2): see
     * {@link ProviderResolution}; {@code manifests} maps the provider names of the manifests the CLI knows to
     * their GUIDs.
     */
    public ProviderResolution resolve(EtwBackend backend, Map<String, Guid> manifests) {
        return TraceSession.resolve(text, backend, manifests);
    }

    /** The enable parameters this spec asks for. */
    public EnableParameters parameters() {
        return EnableParameters.builder().level(level).matchAnyKeyword(keywords).build();
    }

    /** Picocli converter, so that a bad spec is a usage error. */
    public static final class Converter implements picocli.CommandLine.ITypeConverter<ProviderSpec> {
        @Override
        public ProviderSpec convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    private static int level(String t, String spec) {
        switch (t.toLowerCase(Locale.ROOT)) {
            case "critical":
            case "fatal":
                return Level.CRITICAL.value();
            case "error":
                return Level.ERROR.value();
            case "warning":
            case "warn":
                return Level.WARNING.value();
            case "informational":
            case "information":
            case "info":
                return Level.INFORMATIONAL.value();
            case "verbose":
                return Level.VERBOSE.value();
            default:
                try {
                    int v = Integer.parseInt(t);
                    if (v >= 0 && v <= 255) {
                        return v;
                    }
                } catch (NumberFormatException ignored) {
                    // reported below
                }
                throw new IllegalArgumentException("provider '" + spec + "': level '" + t
                        + "' is not 0-255 or critical/error/warning/info/verbose");
        }
    }

    private static long keywords(String t, String spec) {
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("provider '" + spec + "': keywords '" + t
                    + "' is not a 64-bit mask (0x... or decimal)");
        }
    }
}
