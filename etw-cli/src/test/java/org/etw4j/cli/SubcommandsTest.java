package org.etw4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

/** The registry of subcommands ({@link Subcommands}) against the commands it builds. */
class SubcommandsTest {
    @Test
    void eachNameIsTheOneItsCommandDeclares() {
        for (Subcommands.Entry e : Subcommands.ALL) {
            Object command = e.command().get();
            String declared = command instanceof CommandLine cl ? cl.getCommandName()
                    : ((Class<?>) command).getAnnotation(CommandLine.Command.class).name();
            assertEquals(e.name(), declared, "registry name of " + command);
            if (command instanceof Class<?> c) {
                assertEquals(0, c.getAnnotation(CommandLine.Command.class).aliases().length,
                        c + " has aliases: Subcommands.named would not find it by them");
            }
        }
    }

    @Test
    void helpListsTheRegistryInItsOrder() {
        var cl = EtwCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        List<String> names = new ArrayList<>();
        Subcommands.ALL.forEach(e -> names.add(e.name()));
        assertEquals(names, new ArrayList<>(cl.getSubcommands().keySet()));
    }

    @Test
    void aCommandLineNamingASubcommandBuildsThatOneAlone() {
        var out = new PrintWriter(new StringWriter());
        assertEquals(List.of("guid"), List.copyOf(EtwCommand.commandLine(out, out, "guid", "x").getSubcommands().keySet()));
        assertEquals(List.of("summary"),
                List.copyOf(EtwCommand.commandLine(out, out, "summary", "f.etl").getSubcommands().keySet()));
        assertEquals(List.of(), List.copyOf(EtwCommand.commandLine(out, out, "--version").getSubcommands().keySet()));
        // help needs the others; an unknown name builds them all so that its error can suggest the near ones
        assertEquals(Subcommands.ALL.size(), EtwCommand.commandLine(out, out, "help", "guid").getSubcommands().size());
        assertEquals(Subcommands.ALL.size(), EtwCommand.commandLine(out, out, "gui").getSubcommands().size());
        assertNull(Subcommands.named("help"));
        assertSame(Subcommands.ALL.get(1), Subcommands.named("guid"));
    }
}
