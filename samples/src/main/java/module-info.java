/**
 * etw4j samples: one small program per integration (the Logback, Log4j2 and JUL bridges, the OpenTelemetry exporter,
 * JFR to ETW), each writing through its bridge and reading its own events back. The {@code etw} command line is the
 * etw-cli module.
 */
module org.etw4j.samples {
    requires org.etw4j.api;
    requires org.etw4j.consumer;
    // org.etw4j.samples.logging: the logging frameworks the bridge samples configure and log through.
    requires ch.qos.logback.classic;
    requires org.slf4j;
    requires org.apache.logging.log4j.core;
    requires org.apache.logging.log4j;
    requires java.logging;
    requires org.etw4j.opentelemetry; // the OpenTelemetry sample (org.etw4j.samples.otel)
    requires io.opentelemetry.sdk;
    requires org.etw4j.jfr; // the JFR-to-ETW sample (org.etw4j.samples.jfr)

    // The samples' configuration files are read by the frameworks.
    opens org.etw4j.samples.logging;
}
