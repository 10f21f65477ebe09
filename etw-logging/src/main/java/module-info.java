/**
 * etw4j logging bridge core: log records as TraceLogging events in the shape of .NET's Microsoft-Extensions-Logging
 * events, shared by the Logback, Log4j2 and java.util.logging bridges. Java 17, no FFM.
 */
module org.etw4j.logging {
    requires transitive org.etw4j.api;

    exports org.etw4j.logging;
}
