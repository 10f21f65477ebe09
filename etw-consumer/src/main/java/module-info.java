/**
 * etw4j consumer: the pure-Java .etl reader (memory-mapped, streaming, time-ordered merge), summaries and a
 * small JSON writer.
 */
module org.etw4j.consumer {
    requires transitive org.etw4j.api;
    // The manifest parser of org.etw4j.consumer.decode reads XML.
    requires java.xml;

    exports org.etw4j.consumer.etl;
    exports org.etw4j.consumer.output;
    // The one text/JSON Lines/CSV rendering of events (etw dump, etw live).
    // Streams and the events they deliver.
    exports org.etw4j.consumer;
    // EventRecord's decoded access returns org.etw4j.consumer.decode types.
    exports org.etw4j.consumer.decode;
    // The trace model: processes, threads, images, stacks, CPU profiles.
    exports org.etw4j.consumer.model;
    // Not application API: the CLI's formatters read EventRecord's backend form and decoded view through it.
    exports org.etw4j.consumer.internal to org.etw4j.cli;

    provides org.etw4j.spi.LogFileSinkFactory with org.etw4j.consumer.internal.EtlLogFileSinkFactory;
}
