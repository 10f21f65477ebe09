package org.etw4j.samples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A progress line on stderr for long file reads: {@code [######......]  42%  file.etl  12.0/28.6 MB}.
 *
 * <p>Thread-safe: the reading thread reports positions ({@link #update(long)}, plain volatile writes, no
 * allocation); a daemon thread redraws the line every 200 ms. Shown only when stderr is a terminal (see
 * {@link EtwCommand#progressAllowed()}) and only once a read has taken more than half a second, so short reads
 * and redirected or captured output get nothing. {@link #close()} erases the line and stops the thread; it is
 * idempotent.
 */
final class Progress implements AutoCloseable {
    private static final Progress NONE = new Progress(null, 0);
    private static final long DELAY_NANOS = 500_000_000L;

    private final PrintWriter err;
    private final long totalBytes;
    private final long started = System.nanoTime();
    private final Thread ticker;
    private volatile long doneBefore;     // bytes of the files finished
    private volatile long positionInFile; // bytes read of the current file
    private volatile String current = "";
    private volatile boolean closed;
    private int lastWidth;

    private Progress(PrintWriter err, long totalBytes) {
        this.err = err;
        this.totalBytes = totalBytes;
        if (err == null) {
            this.ticker = null;
        } else {
            this.ticker = new Thread(this::tick, "etw-progress");
            ticker.setDaemon(true);
            ticker.start();
        }
    }

    /** A progress line for reading {@code files}, or a silent one when stderr is not a terminal. */
    static Progress forFiles(PrintWriter err, List<Path> files) {
        if (!EtwCommand.progressAllowed()) {
            return NONE;
        }
        long total = 0;
        for (Path f : files) {
            try {
                total += Files.size(f);
            } catch (IOException e) {
                // the read itself reports it
            }
        }
        return new Progress(err, total);
    }

    void startFile(Path file) {
        positionInFile = 0;
        current = String.valueOf(file.getFileName());
    }

    /** What the line says is being read. */
    void label(String text) {
        current = text;
    }

    /** The reader is at byte {@code position} of the current file. */
    void update(long position) {
        positionInFile = position;
    }

    void fileDone(Path file) {
        try {
            doneBefore += Files.size(file);
        } catch (IOException e) {
            // keep the previous total
        }
        positionInFile = 0;
    }

    private void tick() {
        while (!closed) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed && System.nanoTime() - started > DELAY_NANOS) {
                draw();
            }
        }
    }

    private synchronized void draw() {
        if (closed) {
            return;
        }
        long done = Math.min(totalBytes, doneBefore + positionInFile);
        int pct = totalBytes <= 0 ? 0 : (int) (100 * done / totalBytes);
        int filled = pct * 30 / 100;
        String line = "[" + "#".repeat(filled) + ".".repeat(30 - filled) + "] " + String.format("%3d%%", pct) + "  "
                + current + "  " + mb(done) + "/" + mb(totalBytes) + " MB";
        StringBuilder sb = new StringBuilder("\r").append(line);
        if (line.length() < lastWidth) {
            sb.append(" ".repeat(lastWidth - line.length()));
        }
        lastWidth = line.length();
        err.print(sb);
        err.flush();
    }

    private static String mb(long bytes) {
        return String.format("%.1f", bytes / 1_048_576.0);
    }

    @Override
    public void close() {
        if (ticker == null || closed) {
            return;
        }
        synchronized (this) {
            closed = true;
            if (lastWidth > 0) {
                err.print("\r" + " ".repeat(lastWidth) + "\r");
                err.flush();
            }
        }
        ticker.interrupt();
    }
}
