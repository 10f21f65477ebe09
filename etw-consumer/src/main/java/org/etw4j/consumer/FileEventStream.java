package org.etw4j.consumer;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * An {@link EventStream} over .etl files: reads them through a {@link TraceFile} on the handler thread and hands
 * its records to the handlers (files wait: nothing is dropped). The headers' EventsLost is reported once at the
 * start. Thread-safe as {@link EventStream} says; the reader is used by the handler thread only.
 */
final class FileEventStream extends AbstractEventStream {
    private final TraceFile files;

    FileEventStream(TraceFile files, Path... paths) {
        super("files " + Arrays.toString(paths), StreamOptions.direct(), files.decoding());
        this.files = files;
    }

    @Override
    void run() {
        long[] losses = files.headerLosses();
        if (losses[0] > 0 || losses[1] > 0) {
            lostBySession = losses[0];
            fireLost(new LostEvents(LostEvents.Source.SESSION, losses[0], losses[1]));
        }
        while (!closing && files.hasMoreEvents()) {
            received++;
            dispatch(files.readEvent());
        }
    }

    @Override
    void release() {
        files.close();
    }
}
