/**
 * The raw .etl tier, in pure Java on any OS: reading files record by record without decoding, summarising them,
 * writing them and relogging them. Applications that want decoded events read through
 * {@link org.etw4j.consumer.TraceFile} instead; this tier is for tools that work on records as ETW stored them.
 *
 * <p>Entry points: {@link org.etw4j.consumer.etl.EtlFile#open(java.nio.file.Path, EtlReadOptions)} opens a file
 * (memory-mapped; problems stepped over and reported as {@link org.etw4j.consumer.etl.EtlWarning}s, or thrown as
 * {@link org.etw4j.consumer.etl.EtlFormatException} in strict mode); its {@code cursor(...)} walks the records in
 * time or file order, over the whole file or a range of buffers ({@link org.etw4j.consumer.etl.EtlBufferFilter}),
 * each seen through a reused {@link org.etw4j.consumer.etl.EtlRecordView} (its header kind a
 * {@link org.etw4j.consumer.etl.HeaderKind}; {@code asRawEventRecord()} the same record as the {@code EVENT_RECORD}
 * ProcessTrace would deliver, etw-api's {@link org.etw4j.RawEventRecord}), every record found either returned or
 * warned about ({@link org.etw4j.consumer.etl.EtlRecordCounts}); the file's {@link
 * org.etw4j.consumer.etl.EtlLogfileHeader} names its session clock with etw-api's
 * {@link org.etw4j.controller.ClockType} and converts timestamps with its {@link org.etw4j.consumer.etl.EtlClock};
 * {@link org.etw4j.consumer.etl.EtlSummary#of(EtlFile)} counts a file; {@link org.etw4j.consumer.etl.EtlWriter} writes a
 * file; {@link org.etw4j.consumer.etl.Relogger} filters and merges files into a new one.
 *
 * <p>Threading: an {@code EtlFile}'s header and counters may be read from any thread; each cursor, with its view,
 * belongs to one thread; an {@code EtlWriter} is written by one thread; a configured {@code Relogger} and the value
 * types (summary, warnings, header, clock) are immutable and thread-safe.
 *
 * <p>Reuse: a cursor's view (and its {@code asRawEventRecord()} form) describes the current record only until the
 * next {@code advance()}; {@code EtlRecordView.copy()} keeps one, an immutable {@link org.etw4j.consumer.etl.EtlRecord}. Cursors allocate nothing per record.
 *
 * <p>Close: {@code EtlFile.close()} is idempotent and unmaps the file; its cursors, views and payload buffers then
 * throw {@link java.lang.IllegalStateException} instead of reading freed memory (copies stay valid).
 * {@code EtlWriter.close()} is idempotent and completes the file; {@code Relogger.relogTo} closes what it opens.
 */
package org.etw4j.consumer.etl;
