package org.etw4j.cli;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Building blocks of the commands whose picocli model is built in code ({@link CommandSpec}'s API) instead of read
 * from annotations: the start-up path of {@code etw --version} and {@code etw guid}.
 *
 * <p>Stateless; thread-safe. Why in code: picocli reads annotations through reflection, for which the JDK spins
 * one dynamic proxy class per annotation type at every start (the AOT cache cannot hold them), and
 * {@code mixinStandardHelpOptions} is itself an annotated class inside picocli; both cost more than the rest of such
 * a command's start (PERFORMANCE.md, "issue 20 target 2, start-up").
 */
final class CommandSpecs {
    /** The key picocli's own {@code mixinStandardHelpOptions} registers its mixin under. */
    private static final String STANDARD_HELP_MIXIN = "mixinStandardHelpOptions";

    private CommandSpecs() {
    }

    /**
     * The model of a subcommand run by {@code command}'s {@code call()}: its name, the one-line header {@code etw
     * --help} lists it with, and its description; options are added to it, then {@link #commandLine} finishes it.
     */
    static CommandSpec subcommand(Object command, String name, String header, String description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name);
        spec.usageMessage().header(header).description(description);
        return spec;
    }

    /** Adds the standard help options to {@code spec} and makes the command line that runs it. */
    static CommandLine commandLine(CommandSpec spec) {
        return new CommandLine(standardHelpOptions(spec));
    }

    /**
     * A positional parameter taking one or more values ({@code arity = "1..*"}, required) into a list field, as
     * {@code @Parameters(arity = "1..*")} on a {@code List<E>} field declares it.
     */
    static <E> PositionalParamSpec oneOrMore(String label, Class<E> type, String description, Binding<List<E>> field) {
        return PositionalParamSpec.builder().arity("1..*").required(true).paramLabel(label)
                .type(List.class).auxiliaryTypes(type).description(description)
                .getter(field).setter(field).build();
    }

    /**
     * Adds {@code -h, --help} and {@code -V, --version} as {@code @Command(mixinStandardHelpOptions = true)} does:
     * same names, descriptions and mixin key, so that help text and behaviour are the same. Unlike picocli's mixin,
     * the names are not read from the {@code picocli.help.name.N} / {@code picocli.version.name.N} system
     * properties.
     */
    static CommandSpec standardHelpOptions(CommandSpec spec) {
        CommandSpec mixin = CommandSpec.create();
        mixin.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class)
                .description("Show this help message and exit.").build());
        mixin.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .description("Print version information and exit.").build());
        spec.addMixin(STANDARD_HELP_MIXIN, mixin);
        return spec;
    }

    /** A binding of an option or parameter to a command object's field, through its getter and setter. */
    static <T> Binding<T> field(Supplier<T> getter, Consumer<T> setter) {
        return new Binding<>(getter, setter);
    }

    /**
     * Gets and sets one value of a command object for picocli (the role a field plays for annotations).
     *
     * @param <T> the value's type
     */
    record Binding<T>(Supplier<T> getter, Consumer<T> setter) implements IGetter, ISetter {
        @Override
        @SuppressWarnings("unchecked")
        public <V> V get() {
            return (V) getter.get();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V set(V value) {
            V old = (V) getter.get();
            setter.accept((T) value);
            return old;
        }
    }
}
