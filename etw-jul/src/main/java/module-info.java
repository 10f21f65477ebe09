/** etw4j java.util.logging bridge: {@code org.etw4j.jul.EtwHandler}. */
module org.etw4j.jul {
    requires transitive org.etw4j.logging;
    requires transitive java.logging;

    exports org.etw4j.jul;
}
