package org.etw4j.controller;

/**
 * Which kind of session carries the SystemTraceProvider's kernel events.
 *
 * <p>Enum constants: immutable, thread-safe. Source: MS Learn, "Configuring and Starting the NT Kernel Logger
 * Session" and "Configuring and Starting a SystemTraceProvider Session".
 */
public enum KernelLogger {
    /**
     * The one NT Kernel Logger session of the machine: its name must be {@link KernelTracing#KERNEL_LOGGER_NAME}
     * and its {@code Wnode.Guid} {@link KernelTracing#SYSTEM_TRACE_CONTROL_GUID}. Every Windows version.
     */
    NT_KERNEL_LOGGER,
    /**
     * A session of any other name with {@code EVENT_TRACE_SYSTEM_LOGGER_MODE} in its LogFileMode and a session GUID
     * of its own (never SystemTraceControlGuid); Windows 8 and later, up to 8 such sessions, two slots of which are
     * the NT Kernel Logger's and the Circular Kernel Context Logger's.
     */
    SYSTEM_LOGGER
}
