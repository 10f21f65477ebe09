/** etw4j Logback bridge: {@code org.etw4j.logback.EtwAppender}. */
module org.etw4j.logback {
    requires transitive org.etw4j.logging;
    requires transitive ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires org.slf4j;

    exports org.etw4j.logback;
}
