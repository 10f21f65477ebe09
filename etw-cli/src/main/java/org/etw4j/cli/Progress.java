package org.etw4j.cli;

import java.io.PrintWriter;

/**
 * A progress line on stderr for long file reads: {@code [######........................]  21%  label  detail}.
 *
 * <p>Thread-safe: the reading thread reports how far it is ({@link #update(long, String)}, volatile writes, no
 * allocation unless it builds a detail text); a daemon thread redraws the line every 200 ms. Shown only when
 * stderr is a terminal (see {@link EtwCommand#progressAllowed()}) and only once a read has taken more than half a
 * second, so short reads and redirected or captured output get nothing. {@link #close()} erases the line and
 * stops the thread; it is idempotent.
 */
final class Progress implements AutoCloseable {
    private static final Progress NONE = new Progress(null, "", 0);
    private static final long DELAY_NANOS = 500_000_000L;

    private final PrintWriter err;
    private final boolean drawAtEveryUpdate = EtwCommand.progressAtEveryUpdate();
    private final long started = System.nanoTime();
    private final Thread ticker;
    private volatile String label;
    private volatile long total;
    private volatile long done;
    private volatile String detail = "";
    private volatile boolean closed;
    private int lastWidth;

    private Progress(PrintWriter err, String label, long total) {
        this.err = err;
        this.label = label;
        this.total = total;
        if (err == null) {
            this.ticker = null;
        } else {
            this.ticker = new Thread(this::tick, "etw-progress");
            ticker.setDaemon(true);
            ticker.start();
        }
    }

    /**
     * A progress line for work of {@code total} units (bytes, ticks...), or a silent one when stderr is not a
     * terminal.
     */
    static Progress start(PrintWriter err, String label, long total) {
        return EtwCommand.progressAllowed() ? new Progress(err, label, total) : NONE;
    }

    /**
     * A {@link org.etw4j.consumer.model.TraceModel#read(java.util.List, org.etw4j.consumer.model.ReadProgress)}
     * callback drawing on this line: both passes as one bar, {@code pass N/2} after the label. For every command
     * that builds a trace model ({@code etw profile}, and the commands drawing pictures from it).
     */
    org.etw4j.consumer.model.ReadProgress modelRead() {
        total(1_000_000);
        String[] passText = {"pass 1/2", "pass 2/2"};
        return (pass, passes, fraction) -> update(
                (long) (org.etw4j.consumer.model.ReadProgress.overall(pass, passes, fraction) * 1_000_000),
                passes == 2 && pass >= 1 && pass <= 2 ? passText[pass - 1] : "pass " + pass + "/" + passes);
    }

    /** Changes the label. */
    void label(String text) {
        label = text;
    }

    /** Changes the amount of work (when it is known only later). */
    void total(long units) {
        total = units;
    }

    /** {@code units} of the total are done; {@code text} (may be null) is shown after the label. */
    void update(long units, String text) {
        done = units;
        if (text != null) {
            detail = text;
        }
        if (drawAtEveryUpdate && ticker != null) {
            draw();
        }
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
        long t = total;
        int pct = t <= 0 ? 0 : (int) Math.max(0, Math.min(100, 100 * (double) done / t));
        int filled = pct * 30 / 100;
        String line = "[" + "#".repeat(filled) + ".".repeat(30 - filled) + "] " + String.format("%3d%%", pct) + "  "
                + label + (detail.isEmpty() ? "" : "  " + detail);
        StringBuilder sb = new StringBuilder("\r").append(line);
        if (line.length() < lastWidth) {
            sb.append(" ".repeat(lastWidth - line.length()));
        }
        lastWidth = line.length();
        err.print(sb);
        err.flush();
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
