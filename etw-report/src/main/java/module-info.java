/**
 * etw4j report: a self-contained HTML page about one trace (header facts, providers, events per second, top
 * processes by CPU samples, flame graph), {@link org.etw4j.report.HtmlReport}.
 */
module org.etw4j.report {
    requires transitive org.etw4j.consumer;

    exports org.etw4j.report;
}
