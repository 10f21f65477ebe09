/**
 * etw4j samples: the {@code etw} command line ({@code org.etw4j.samples.cli}: demo, guid, summary, dump, profile,
 * report, record, live) over the etw4j API and consumer. The Windows backend is found as a service at run time (etw-api
 * {@code uses} it), so this module does not require native-bindings.
 */
module org.etw4j.samples {
    requires org.etw4j.api;
    requires org.etw4j.consumer;
    requires org.etw4j.report; // etw report: the HTML trace report
    requires info.picocli;
    // org.etw4j.samples.logging: the logging frameworks the bridge samples configure and log through.
    requires ch.qos.logback.classic;
    requires org.slf4j;
    requires org.apache.logging.log4j.core;
    requires org.apache.logging.log4j;
    requires java.logging;
    requires org.etw4j.opentelemetry; // the OpenTelemetry sample (org.etw4j.samples.otel)
    requires io.opentelemetry.sdk;
    requires org.etw4j.jfr; // the JFR-to-ETW sample (org.etw4j.samples.jfr)

    // picocli reads and sets the commands' annotated fields and creates their mixins and providers by reflection.
    opens org.etw4j.samples.cli to info.picocli;
    // The samples' configuration files are read by the frameworks.
    opens org.etw4j.samples.logging;
}
