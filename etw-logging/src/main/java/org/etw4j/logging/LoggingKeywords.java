package org.etw4j.logging;

/**
 * The keywords of the bridges' events: one per kind of content, so that a session asks for what it wants and the
 * bridge formats nothing else.
 *
 * <p>The first four bits are those of .NET's {@code LoggingEventSource.Keywords} (dotnet/runtime
 * src/libraries/Microsoft.Extensions.Logging.EventSource/src/LoggingEventSource.cs: Meta = 1, Message = 2,
 * FormattedMessage = 4, JsonMessage = 8), so a session written for .NET services asks for the same bits. The
 * bridges never write {@link #META} or {@link #JSON_MESSAGE} content; {@link #EXCEPTION} and {@link #CONTEXT} are
 * ours (.NET puts the exception in its {@code Message} event and has no MDC).
 */
public final class LoggingKeywords {
    /** .NET: events about the event source itself. Not written by the bridges. */
    public static final long META = 0x1;
    /** .NET "Message": the arguments, as {@code Arguments} key/value pairs ending with {@code {OriginalFormat}}. */
    public static final long MESSAGE = 0x2;
    /** .NET "FormattedMessage": the formatted text, in the {@code FormattedMessage} field. */
    public static final long FORMATTED_MESSAGE = 0x4;
    /** .NET "JsonMessage" ({@code MessageJson} events). Not written by the bridges. */
    public static final long JSON_MESSAGE = 0x8;
    /** Ours: the throwable, as the {@code Exception} struct (type, message, stack trace). */
    public static final long EXCEPTION = 0x10;
    /** Ours: MDC / ThreadContext entries, one string field each. */
    public static final long CONTEXT = 0x20;
    /** Every keyword a bridge may put on an event: a record is wanted when a session asks for any of them. */
    public static final long ALL_WRITTEN = MESSAGE | FORMATTED_MESSAGE | EXCEPTION | CONTEXT;

    private LoggingKeywords() {
    }
}
