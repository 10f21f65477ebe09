package org.etw4j.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the etw command in-process, as the launcher would, and captures what it prints.
 *
 * <p>Stateless; thread-safe (each call has its own streams).
 */
final class Cli {
    private Cli() {
    }

    /**
     * What one command line did.
     *
     * @param code the exit code
     * @param out  everything printed on stdout
     * @param err  everything printed on stderr
     */
    record Result(int code, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : Arrays.asList(out.split("\\R"));
        }

        List<String> errLines() {
            return err.isEmpty() ? List.of() : Arrays.asList(err.split("\\R"));
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = EtwCommand.execute(o, e, args);
        }
        return new Result(code, out.toString(), err.toString());
    }
}
