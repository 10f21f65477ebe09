/**
 * etw4j command line: the {@code etw} command ({@code org.etw4j.cli}: demo, guid, summary, dump, profile, timeline,
 * report, record, live) over the etw4j API and consumer. The Windows backend is found as a service at run time (etw-api
 * {@code uses} it), so this module does not require native-bindings.
 */
module org.etw4j.cli {
    requires org.etw4j.api;
    requires org.etw4j.consumer;
    requires org.etw4j.report; // etw report: the HTML trace report
    requires info.picocli;

    // picocli reads and sets the commands' annotated fields and creates their mixins and providers by reflection.
    opens org.etw4j.cli to info.picocli;
}
