package org.etw4j.consumer;

import org.etw4j.RawEventRecord;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.RecordSink;
import org.etw4j.spi.TraceConsumer;

/**
 * An {@link EventStream} over a real-time session with direct hand-off ({@link Backpressure#NONE}): the handlers
 * run on ETW's delivery thread (the one in {@code ProcessTrace}, which {@link #start()} or {@link #startAsync()}
 * provides) and receive one reused view of the backend's record, valid during the call. Losses and errors are
 * reported at once, on that thread.
 */
final class DirectSessionStream extends AbstractEventStream {
    private final EventRecord view;
    private final TraceConsumer consumer;

    DirectSessionStream(String sessionName, EtwBackend backend, StreamOptions options) {
        super("session " + sessionName, options, new RecordDecoding());
        this.view = new EventRecord(decoding);
        // Opening the consumer now makes the session keep events for us until start() (OpenTrace, then
        // ProcessTrace: MS Learn, "Consuming events").
        this.consumer = backend.openRealTime(sessionName, new Sink());
    }

    @Override
    void run() {
        consumer.process();
    }

    @Override
    void stopSource() {
        consumer.close(); // makes ProcessTrace return; safe from any thread
    }

    /** What the backend delivers to, on its delivery thread. */
    private final class Sink implements RecordSink {
        @Override
        public void onRecord(RawEventRecord record) {
            if (admit(record)) {
                view.resetLive(record);
                dispatch(view);
            }
        }

        @Override
        public void onLost(long events, long buffers) {
            lostBySession += events;
            fireLost(new LostEvents(LostEvents.Source.SESSION, events, buffers));
        }

        @Override
        public void onUndelivered(long events, long buffers) {
            undeliveredBySource += events; // reported with the discarded ones when the stream finishes
        }

        @Override
        public void onError(Throwable error) {
            fireError(error);
        }
    }
}
