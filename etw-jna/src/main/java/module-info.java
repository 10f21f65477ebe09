/**
 * etw4j's JNA backend: the provider side of ETW (EventRegister, EventUnregister, EventWriteTransfer,
 * EventSetInformation, EventActivityIdControl and the enable callback) for services on Java 17 to 22, behind
 * the same backend SPI as the FFM backend. Sessions and consumers need the FFM backend (Java 23+, as the README's
 * table says).
 */
module org.etw4j.jna {
    requires transitive org.etw4j.api; // its types (EtwBackend, Guid...) are in this module's API
    requires com.sun.jna;

    // What applications call: JnaBackend (the backend's view: callback failures) and CallbackFailure.
    exports org.etw4j.jna;
    // The SPI implementation (JnaEtwBackend, its factory, registrations) and the native binding: not application
    // API. JNA binds the native methods of Advapi32 and calls NativeEnableCallback by reflection.
    exports org.etw4j.jna.internal to com.sun.jna;

    provides org.etw4j.spi.EtwBackendFactory with org.etw4j.jna.internal.JnaBackendFactory;
}
