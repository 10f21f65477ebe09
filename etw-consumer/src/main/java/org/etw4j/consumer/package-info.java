/**
 * Reading ETW events, in the manner of JDK Flight Recorder's {@code jdk.jfr.consumer}: a pull reader over .etl
 * files, push streams over files and live sessions, and the one event type they deliver.
 *
 * <p>Entry points: {@link org.etw4j.consumer.TraceFile#open(ReadSettings, java.nio.file.Path...)} reads files one
 * event at a time ({@code hasMoreEvents()}, {@code readEvent()}), as {@code jdk.jfr.consumer.RecordingFile} does;
 * {@link org.etw4j.consumer.EventStream#openFiles(ReadSettings, java.nio.file.Path...)} and
 * {@link org.etw4j.consumer.EventStream#openSession(String)} dispatch events to handlers, as
 * {@code jdk.jfr.consumer.EventStream} does. {@link org.etw4j.consumer.ReadSettings} says how files are read
 * (manifests, providers, time range, trace context, reuse); {@link org.etw4j.consumer.StreamOptions} how a live
 * stream hands events over ({@link org.etw4j.consumer.Backpressure}, losses as {@link org.etw4j.consumer.LostEvents}).
 * Both read through the same pipeline as {@code etw dump}, so they decode and attribute events alike.
 *
 * <p>One read path: every reader of .etl records in etw4j (the streams, the CLI's commands, the Spark reader, the
 * benchmarks) reads through {@code TraceFile}, which runs the consumer's one pipeline: source (the files, merged in
 * time order), decode (the schema chain), present (the trace context), event ({@code EventRecord}), and the
 * formatter of {@code org.etw4j.consumer.output}. A reader that needs less or part of a trace says so in its
 * {@link org.etw4j.consumer.ReadSettings}, never with a loop of its own over {@code EtlFile.cursor()}:
 * <ul>
 *   <li>a split: a range of one file's buffers, with a buffer filter ({@code ReadSettings.Builder.buffers});</li>
 *   <li>a first pass made once and shared by the readers of one file
 *       ({@link org.etw4j.consumer.LearnedContext#learn}, {@code ReadSettings.Builder.learnedContext});</li>
 *   <li>no trace context, for readers of headers or schemas only ({@code ReadSettings.TraceContext.NONE}: an
 *       event is decoded only when a decoded getter is called, so a header-only read decodes nothing);</li>
 *   <li>the events no schema describes ({@code ReadSettings.Builder.tallyUndecoded}, then
 *       {@code TraceFile.undecoded()}: an {@link org.etw4j.consumer.UndecodedEvents}, each kind with why);</li>
 *   <li>the providers the settings' manifests declare ({@code ReadSettings.manifestProviders()}: name, GUID,
 *       events), to resolve provider names before a session or a read starts;</li>
 *   <li>files the client opened itself ({@code TraceFile.over}), the raw record of each event as the raw tier's
 *       record view ({@code TraceFile.record()}, an {@link org.etw4j.consumer.etl.EtlRecordView}), and reading again
 *       from the start ({@code TraceFile.rewind()}).</li>
 * </ul>
 *
 * <p>Threading: a {@code TraceFile} is read by one thread; an {@code EventStream} is thread-safe and runs all its
 * handlers on one thread, one event at a time. Settings, options and statistics are immutable values.
 *
 * <p>The event: {@link org.etw4j.consumer.EventRecord} is the one event type clients see, as JFR's
 * {@code RecordedEvent}. Its header getters read the record in place; its fields
 * ({@link org.etw4j.consumer.EventField}, structs as {@link org.etw4j.consumer.StructValue}, manifest types as
 * {@link org.etw4j.consumer.InType}/{@link org.etw4j.consumer.OutType}), names, schema origin
 * ({@link org.etw4j.consumer.SchemaSource}) and process ({@link org.etw4j.consumer.ProcessInfo}; a process instance
 * with its start and stop, as the trace model lists them, is a {@link org.etw4j.consumer.ProcessLifetime}) are the
 * event as {@code etw dump} shows it: decoded, then shown through the trace context (drive-letter paths, file names of file
 * keys, the attributed process), as TraceEvent and WPA present events. {@code toString()} and {@code toJson()} are
 * dump's text and JSON Lines lines. Its extended data items are {@link org.etw4j.consumer.ExtendedItem}s; a stream's
 * counters at a moment are {@link org.etw4j.consumer.EventStreamStatistics}.
 *
 * <p>Reuse: an {@link org.etw4j.consumer.EventRecord} is valid until the next event of its reader or stream (with
 * reuse on, the default, the same object is re-pointed at each event, as JFR's {@code setReuse(true)}); its
 * {@code copy()} is an independent, immutable, thread-safe value to keep, decoded when it is made. Value types
 * ({@code EventField}, {@code StructValue}, {@code ProcessInfo}, {@code ProcessLifetime}) are immutable;
 * {@code UndecodedEvents} is filled by its reader and read after it.
 *
 * <p>Close: {@code TraceFile.close()} and {@code EventStream.close()} are idempotent and release the mapped files or
 * the session consumer; events read from them are invalid afterwards, copies stay valid.
 *
 * <p>What is not here is not API: the decoder, the trace context, the one file pass and the bridges live in
 * {@code org.etw4j.consumer.internal...}, which the module does not export.
 */
package org.etw4j.consumer;
