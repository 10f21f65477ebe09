package org.etw4j.consumer.internal.decode;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;

/**
 * Everything needed to name and decode one kind of event: its identity, its TraceEvent-style names, its field
 * template and the value maps the template refers to.
 * Immutable value; thread-safe; shared by every event of that kind.
 *
 * @param providerId   provider GUID (for classic events the event-class GUID)
 * @param providerName provider name as tools print it (e.g. {@code Microsoft-Windows-DotNETRuntime},
 *                     {@code Windows Kernel})
 * @param eventId      event id (manifest {@code value}; for classic events the opcode)
 * @param version      event version
 * @param task         task number (0 when none)
 * @param opcode       opcode number
 * @param taskName     task display name, {@code ""} when none
 * @param opcodeName   opcode display name, {@code ""} when none
 * @param eventName    the event's display name, TraceEvent style: {@code Task/Opcode}, or {@code Task} when the
 *                     opcode is 0 (Info) or unnamed, or the symbol when the event has no task
 * @param message      the event's message format ({@code %1}...), resolved from the string table, or {@code null}
 * @param fields       the template, in wire order (empty when the event has no payload)
 * @param maps         the value/bit maps the template's fields name, by map name
 * @param source       where this schema came from
 */
public record EventSchema(Guid providerId, String providerName, int eventId, int version, int task, int opcode,
                          String taskName, String opcodeName, String eventName, String message,
                          List<FieldSpec> fields, Map<String, ValueMap> maps, SchemaSource source) {

    public EventSchema {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(eventName, "eventName");
        Objects.requireNonNull(source, "source");
        taskName = taskName == null ? "" : taskName;
        opcodeName = opcodeName == null ? "" : opcodeName;
        fields = List.copyOf(fields);
        maps = Map.copyOf(maps);
    }

    /**
     * TraceEvent's naming rule ({@code TraceEvent.EventName}): the task name alone when the opcode is 0 or has
     * no name, else {@code task/opcode}; an event without a task name is named by {@code fallback}.
     */
    public static String traceEventName(String taskName, int opcode, String opcodeName, String fallback) {
        if (taskName == null || taskName.isEmpty()) {
            return fallback;
        }
        if (opcode == 0 || opcodeName == null || opcodeName.isEmpty()) {
            return taskName;
        }
        return taskName + "/" + opcodeName;
    }
}
