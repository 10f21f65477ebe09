package org.etw4j.consumer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongConsumer;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.EventView;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.TraceContext;
import org.etw4j.consumer.internal.EventFormatterAccess;
import org.etw4j.consumer.internal.FilePass;
import org.etw4j.consumer.output.EventFormat;
import org.etw4j.consumer.output.EventFormatter;
import org.etw4j.RawEventRecord;
import org.etw4j.RecordSnapshot;

/**
 * {@link TraceFile#writeEvents}'s threaded form: the calling thread reads (the cursor, the merge, decompression,
 * the filters) and copies each event to be written into batches; worker threads decode, present and format the
 * batches into bytes; the calling thread writes the batches' bytes in order. The output is the one a single
 * {@link EventFormatter} writing each event gives, byte for byte.
 *
 * <p>Why that holds: each worker has its own decoder over a copy of the reader's registry as the first pass left it
 * and its own {@link TraceContext#presenter()} of the learned context. What decoding learns from the trace (the
 * EventSource manifests and MetaData events it harvests, {@link FilePass#carriesSchemas}) must reach each worker in
 * trace order: a record that carries schemas is harvested by its own batch's worker as it decodes it, and is given
 * to every other worker ahead of that worker's next batch (which starts after it), so every worker's registry holds
 * exactly what a one-thread read's would when it decodes a record. Only the reading thread touches the reader.
 *
 * <p>One use per call; the threads end before {@link #run} returns. Memory: at most {@code 2 x workers + 1} batches
 * of {@value #BATCH} copied events and their formatted bytes.
 */
final class ParallelFormatting {
    /** Events per batch. */
    static final int BATCH = 2048;

    private final TraceFile in;
    private final OutputStream out;
    private final int batchSize;
    private final Worker[] workers;
    /** Batches handed to workers, oldest first: their bytes are written in this order. */
    private final ArrayDeque<CompletableFuture<byte[]>> inFlight = new ArrayDeque<>();
    private long batches;

    private ParallelFormatting(TraceFile in, EventFormat format, OutputStream out, int workerCount, int batchSize,
                               TraceContext context, ManifestRegistry registry) {
        this.in = in;
        this.batchSize = batchSize;
        this.out = out;
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = new Worker(new EventDecoder(registry.copy()), context == null ? null : context.presenter(),
                    format, format == EventFormat.CSV && i > 0);
        }
    }

    /**
     * Writes at most {@code limit} of {@code in}'s remaining events (its first event is pending: the first pass is
     * done) to {@code out} on {@code workerCount} threads; {@code progress} hears the number written after each
     * batch read. Returns the number of events written.
     */
    static long run(TraceFile in, EventFormat format, OutputStream out, long limit, int workerCount,
                    TraceContext context, ManifestRegistry registry, LongConsumer progress) throws IOException {
        return run(in, format, out, limit, workerCount, BATCH, context, registry, progress);
    }

    /** {@link #run} with batches of {@code batchSize} events (tests: many batches on small traces). */
    static long run(TraceFile in, EventFormat format, OutputStream out, long limit, int workerCount, int batchSize,
                    TraceContext context, ManifestRegistry registry, LongConsumer progress) throws IOException {
        ParallelFormatting p = new ParallelFormatting(in, format, out, workerCount, batchSize, context, registry);
        List<Thread> threads = new ArrayList<>(workerCount);
        for (int i = 0; i < workerCount; i++) {
            Thread t = Thread.ofPlatform().daemon().name("etw4j-format-" + i).start(p.workers[i]::loop);
            threads.add(t);
        }
        try {
            return p.read(limit, progress);
        } finally {
            for (Worker w : p.workers) {
                w.stop();
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private long read(long limit, LongConsumer progress) throws IOException {
        long written = 0;
        Batch batch = new Batch();
        while (written < limit && in.hasMoreEvents()) {
            EventRecord e = in.readEvent();
            RawEventRecord raw = RecordSnapshot.of(e.raw());
            batch.add(raw, e.exactTimestamp());
            written++;
            if (FilePass.carriesSchemas(raw)) {
                int owner = (int) (batches % workers.length);
                for (int w = 0; w < workers.length; w++) {
                    if (w != owner) {
                        workers[w].harvestLater.add(raw);
                    }
                }
            }
            if (batch.size() == batchSize) {
                submit(batch);
                progress.accept(written);
                batch = new Batch();
            }
        }
        if (batch.size() > 0) {
            submit(batch);
        }
        while (!inFlight.isEmpty()) {
            writeOldest();
        }
        out.flush();
        return written;
    }

    private void submit(Batch batch) throws IOException {
        Worker w = workers[(int) (batches++ % workers.length)];
        batch.harvestFirst = w.harvestLater;
        w.harvestLater = new ArrayList<>();
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        batch.result = result;
        while (inFlight.size() >= 2 * workers.length) {
            writeOldest();
        }
        inFlight.add(result);
        w.put(batch);
    }

    private void writeOldest() throws IOException {
        byte[] bytes;
        try {
            bytes = inFlight.poll().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while formatting", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IOException(e.getCause());
        }
        out.write(bytes);
    }

    /** Copied events in trace order, and the schema records of earlier batches its worker has to harvest first. */
    private static final class Batch {
        final List<RawEventRecord> records = new ArrayList<>();
        final List<Instant> times = new ArrayList<>();
        List<RawEventRecord> harvestFirst = List.of();
        CompletableFuture<byte[]> result;

        void add(RawEventRecord r, Instant time) {
            records.add(r);
            times.add(time);
        }

        int size() {
            return records.size();
        }
    }

    /** A byte sink whose content is taken after each batch. */
    private static final class Chunk extends ByteArrayOutputStream {
        Chunk() {
            super(1 << 20);
        }

        byte[] take() {
            byte[] b = toByteArray();
            reset();
            return b;
        }
    }

    /** One formatting thread: its own decoder, presenter and formatter; batches in the order they are given. */
    private static final class Worker {
        private static final Batch STOP = new Batch();
        private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(4);
        private final EventDecoder decoder;
        private final TraceContext presenter;
        private final EventView view;
        private final EventFormatter formatter;
        private final Chunk chunk;
        /** CSV: this worker's formatter writes the header row before its first event; only the first batch keeps it. */
        private boolean dropHeader;
        /** Reading thread only: schema records of other workers' batches since this worker's last batch. */
        List<RawEventRecord> harvestLater = new ArrayList<>();

        Worker(EventDecoder decoder, TraceContext presenter, EventFormat format, boolean dropHeader) {
            this.decoder = decoder;
            this.presenter = presenter;
            this.view = new EventView(decoder);
            this.chunk = new Chunk();
            this.formatter = new EventFormatter(format, chunk);
            this.dropHeader = dropHeader;
        }

        void put(Batch b) throws IOException {
            try {
                queue.put(b);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading", e);
            }
        }

        void stop() {
            queue.offer(STOP);
        }

        void loop() {
            while (true) {
                Batch b;
                try {
                    b = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (b == STOP) {
                    return;
                }
                try {
                    b.result.complete(format(b));
                } catch (RuntimeException | Error | IOException e) {
                    b.result.completeExceptionally(e);
                }
            }
        }

        private byte[] format(Batch b) throws IOException {
            for (RawEventRecord r : b.harvestFirst) {
                decoder.decode(r); // what a one-thread read learned from it before this batch
            }
            for (int i = 0; i < b.records.size(); i++) {
                RawEventRecord r = b.records.get(i);
                view.decode(r);
                if (presenter != null) {
                    presenter.present(r, view);
                }
                EventFormatterAccess.write(formatter, r, view, b.times.get(i));
            }
            formatter.flush();
            byte[] bytes = chunk.take();
            if (dropHeader) {
                dropHeader = false;
                int eol = indexOf(bytes, (byte) '\n');
                bytes = java.util.Arrays.copyOfRange(bytes, eol + 1, bytes.length);
            }
            return bytes;
        }

        private static int indexOf(byte[] b, byte x) {
            for (int i = 0; i < b.length; i++) {
                if (b[i] == x) {
                    return i;
                }
            }
            throw new UncheckedIOException(new IOException("no CSV header row in the first batch"));
        }
    }
}
