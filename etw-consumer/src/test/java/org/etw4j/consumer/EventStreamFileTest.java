package org.etw4j.consumer;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.etw4j.Guid;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** File streams over the shared corpus deliver exactly what the reader reads. */
class EventStreamFileTest {

    static List<Path> corpus() {
        return CorpusFiles.all();
    }

    /** Records per provider, and in total, as the reader counts them. */
    private static Map<Guid, Long> readerCounts(Path file) throws Exception {
        Map<Guid, Long> counts = new HashMap<>();
        try (EtlFile f = EtlFile.open(file)) {
            EtlCursor c = f.cursor();
            while (c.advance()) {
                counts.merge(c.record().providerId(), 1L, Long::sum);
            }
        }
        return counts;
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void sameRecordsAsTheReader(Path file) throws Exception {
        Map<Guid, Long> expected = readerCounts(file);
        long total = expected.values().stream().mapToLong(Long::longValue).sum();
        Guid top = expected.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        long eventsLost;
        try (EtlFile f = EtlFile.open(file)) {
            eventsLost = f.header().eventsLost();
        }
        boolean small = Files.size(file) < 1_000_000;
        AtomicLong all = new AtomicLong();
        AtomicLong ofTop = new AtomicLong();
        AtomicLong tlDecoded = new AtomicLong();
        AtomicLong tl = new AtomicLong();
        AtomicLong reportedLost = new AtomicLong(-1);
        long[] lastTime = {Long.MIN_VALUE};
        AtomicLong backwards = new AtomicLong();
        List<Throwable> errors = new ArrayList<>();
        EventStream s = EventStream.openFiles(file);
        s.onEvent(e -> {
            all.incrementAndGet();
            if (e.fileTime() < lastTime[0]) {
                backwards.incrementAndGet();
            }
            lastTime[0] = e.fileTime();
            if (small) {
                // Text and JSON forms work for every record kind (decoding never throws).
                assertNotNull(e.eventName());
                assertFalse(e.toString().isEmpty());
                String json = e.toJson();
                assertTrue(json.startsWith("{") && json.endsWith("}"), json);
                if (e.isTraceLogging()) {
                    tl.incrementAndGet();
                    if (e.schemaSource() == SchemaSource.TRACELOGGING) {
                        tlDecoded.incrementAndGet();
                    }
                }
            }
        });
        s.onEvent(top, e -> ofTop.incrementAndGet());
        s.onLost(l -> reportedLost.set(l.events()));
        s.onError(errors::add);
        s.start();
        assertEquals(List.of(), errors);
        assertEquals(total, all.get(), "file stream delivers every record the reader reads");
        assertEquals(expected.get(top).longValue(), ofTop.get(), "provider routing over a file");
        EventStreamStatistics st = s.statistics();
        assertEquals(total, st.received());
        assertEquals(total, st.dispatched());
        assertEquals(eventsLost, st.lostBySession());
        assertEquals(eventsLost > 0 ? eventsLost : -1, reportedLost.get(), "the header's EventsLost reported once");
        assertTrue(s.isClosed());
        assertEquals(tl.get(), tlDecoded.get(), "every TraceLogging event of the small files decodes");
        assertEquals(0, backwards.get(), "time order");
    }

    /**
     * The lifecycle's rules ({@code StreamLifecycle}): a stream starts once; a stream closed before its start never
     * starts, runs its close actions once (on the closing thread) and is terminated; a repeated close does nothing.
     */
    @Test
    void aStreamStartsOnceAndAStreamClosedBeforeItsStartRunsItsCloseActionsOnce() throws Exception {
        Path file = CorpusFiles.file("perfview__gcevents.etl");
        try (EventStream s = EventStream.openFiles(file)) {
            s.start();
            IllegalStateException again = assertThrows(IllegalStateException.class, s::start);
            assertTrue(again.getMessage().endsWith(" was closed already"), again.getMessage());
        }
        EventStream unstarted = EventStream.openFiles(file);
        AtomicLong closeActions = new AtomicLong();
        AtomicLong events = new AtomicLong();
        unstarted.onEvent(e -> events.incrementAndGet()).onClose(closeActions::incrementAndGet);
        unstarted.close();
        unstarted.close();
        assertTrue(unstarted.isClosed());
        assertTrue(unstarted.awaitTermination(java.time.Duration.ZERO), "terminated by the close, without a start");
        assertEquals(1, closeActions.get());
        IllegalStateException late = assertThrows(IllegalStateException.class, unstarted::startAsync);
        assertTrue(late.getMessage().endsWith(" was closed already"), late.getMessage());
        assertEquals(0, events.get());
        assertEquals(1, closeActions.get());
    }

    @Test
    void severalFilesMergeInTimeOrder() throws Exception {
        Path a = CorpusFiles.file("perfview__diaghub.diaghub.kernel.1.etl");
        Path b = CorpusFiles.file("perfview__diaghub.diaghub.user_injected.1.etl");
        Path c = CorpusFiles.file("perfview__gcevents.etl");
        long expected = 0;
        for (Path p : List.of(a, b, c)) {
            expected += readerCounts(p).values().stream().mapToLong(Long::longValue).sum();
        }
        AtomicLong n = new AtomicLong();
        long[] last = {Long.MIN_VALUE};
        AtomicLong backwards = new AtomicLong();
        try (EventStream s = EventStream.openFiles(a, b, c)) {
            s.onEvent(e -> {
                n.incrementAndGet();
                if (e.fileTime() < last[0]) {
                    backwards.incrementAndGet();
                }
                last[0] = e.fileTime();
            });
            s.start();
        }
        assertEquals(expected, n.get());
        assertEquals(0, backwards.get(), "merged by FILETIME");
    }

    @Test
    void eventsKnowTheirProcessFromTheStreamsProcessEvents() throws Exception {
        // an unmerged Windows 10 kernel trace: process rundown (DCStart) first, then image loads of running processes
        Path file = CorpusFiles.file("perfview__diaghub.diaghub.kernel.1.etl");
        List<String> mismatches = new ArrayList<>();
        AtomicLong described = new AtomicLong();
        AtomicLong loadsWithProcess = new AtomicLong();
        try (EventStream s = EventStream.openFiles(file)) {
            s.onEvent(e -> {
                String name = e.eventName();
                if (name.equals("Process/DCStart")) {
                    described.incrementAndGet();
                    String image = e.getString("ImageFileName");
                    org.etw4j.consumer.ProcessInfo p = e.process();
                    if (p == null || !p.name().equals(org.etw4j.consumer.ProcessInfo.nameOf(image))
                            || p.processId() != e.getLong("ProcessID")) {
                        mismatches.add(name + " " + image + ": " + p);
                    } else if (!e.toJson().contains(",\"process\":{\"id\":" + p.processId() + ",\"name\":\""
                            + p.name() + "\",")) {
                        mismatches.add("toJson without the process: " + e.toJson());
                    }
                } else if (name.equals("Image/Load") && e.process() != null) {
                    loadsWithProcess.incrementAndGet();
                    if (e.process().processId() != e.getLong("ProcessID")) {
                        mismatches.add(name + ": " + e.process());
                    }
                }
            });
            s.start();
        }
        assertEquals(List.of(), mismatches);
        assertEquals(223, described.get());
        assertTrue(loadsWithProcess.get() > 0, "no Image/Load event knew its process");
    }
}
