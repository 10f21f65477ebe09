/** etw4j Log4j2 bridge: the {@code <Etw>} appender plugin, {@code org.etw4j.log4j2.EtwAppender}. */
module org.etw4j.log4j2 {
    requires transitive org.etw4j.logging;
    requires transitive org.apache.logging.log4j.core;
    requires org.apache.logging.log4j;

    exports org.etw4j.log4j2;
    // Log4j2 sets the builder's @PluginBuilderAttribute fields by reflection.
    opens org.etw4j.log4j2 to org.apache.logging.log4j.core;
}
