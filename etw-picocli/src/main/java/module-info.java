/**
 * picocli 4.7.7 (Apache-2.0, https://picocli.info), compiled from its published sources jar at the project's
 * class-file version. Its own jar is Java 5 bytecode, which the JDK's ahead-of-time cache cannot hold, so each
 * {@code etw} command loaded and verified its ~170 classes at every start (PERFORMANCE.md, issue 20, round 2).
 * The module name and packages are picocli's own: no etw4j code changes with it. Nothing here is edited.
 */
module info.picocli {
    requires static java.sql; // picocli's optional java.sql type converters, as in its own module descriptor
    exports picocli;
}
