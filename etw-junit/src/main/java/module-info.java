/**
 * etw4j for JUnit 5: {@code @EtwTest} runs a test with a private real-time session for the providers it names and
 * injects the captured events ({@link org.etw4j.junit.CapturedEvents}) with fluent assertions over them.
 */
module org.etw4j.junit {
    requires transitive org.etw4j.consumer;
    requires transitive org.junit.jupiter.api;
    requires transitive org.opentest4j;

    exports org.etw4j.junit;
}
