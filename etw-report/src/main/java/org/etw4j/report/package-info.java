/**
 * The HTML trace report ({@code etw report}): one self-contained page about one .etl file (header facts, providers,
 * events per second, top processes by CPU samples, a flame graph), with no network needed to view it.
 *
 * <p>Entry point: {@link org.etw4j.report.TraceReport#read(java.nio.file.Path)} reads the file (twice: the trace
 * model's two passes), then {@link org.etw4j.report.HtmlReport#write} writes the page.
 * {@link org.etw4j.report.TraceFacts} gives the header lines {@code etw summary} prints too.
 *
 * <p>Threading and reuse: {@code TraceReport} and {@link org.etw4j.report.EventRate} are immutable values, safe to
 * share and keep; {@code HtmlReport} and {@code TraceFacts} are stateless. Close: nothing stays open; the .etl file
 * is closed when {@code read(Path)} returns (callers passing an {@code EtlFile} close it themselves).
 */
package org.etw4j.report;
