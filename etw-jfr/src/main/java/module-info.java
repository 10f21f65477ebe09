/**
 * etw4j JFR to ETW: streams the JVM's own Flight Recorder events and re-emits selected ones as TraceLogging events
 * of a {@code Java-Runtime} provider while a session listens. A Java agent ({@link org.etw4j.jfr.JfrAgent}) and a
 * library ({@link org.etw4j.jfr.JfrToEtw}). Java 17, like etw-api.
 */
module org.etw4j.jfr {
    requires org.etw4j.api;
    requires jdk.jfr;
    requires java.instrument;

    exports org.etw4j.jfr;
}
