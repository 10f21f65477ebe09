package org.etw4j.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A headless Chromium driven through the Chrome DevTools Protocol (https://chromedevtools.github.io/devtools-protocol/)
 * over the JDK's WebSocket client, for tests of the HTML report in a real browser.
 *
 * <p>One browser process and one page per instance; not thread-safe (one test thread sends commands, the WebSocket's
 * thread records events). Started with {@code --remote-debugging-port=0} and a temporary profile; the port is read
 * from the {@code DevToolsActivePort} file Chromium writes into the profile. {@link #close()} ends the browser and
 * every process it started, deletes the profile; idempotent. Every wait is bounded by {@link #TIMEOUT}.
 *
 * <p>Records what a page reports while it runs: console calls ({@code Runtime.consoleAPICalled}), uncaught exceptions
 * ({@code Runtime.exceptionThrown}), browser log entries ({@code Log.entryAdded}: blocked requests, CSP violations...)
 * and every request the page makes ({@code Network.requestWillBeSent}).
 */
final class HeadlessChromium implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** Start-up takes 1-2 s on an idle machine, 8.5 s was seen on 2 cores at load 19: room for a busy CI host. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private boolean closed;

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /**
     * The browser to run: system property {@code etw4j.chromium} when set, else the first of chromium,
     * chromium-browser, google-chrome, google-chrome-stable on the PATH. Without one the calling test is skipped
     * with a message, or fails when {@code CI=true} (CI installs Debian's chromium, .ci/run).
     */
    static Path executable() {
        Path p = find();
        if (p != null) {
            return p;
        }
        String named = System.getProperty("etw4j.chromium");
        String msg = (named != null && !named.isBlank() ? "-Detw4j.chromium=" + named + " is not an executable file:"
                : "no Chromium found (PATH: chromium, chromium-browser, google-chrome; or -Detw4j.chromium=PATH):")
                + " the HTML report's browser test needs one (Debian: apt-get install chromium)";
        if (org.etw4j.testing.LinuxCi.proofsRequired()) {
            throw new AssertionError(msg + "; CI must have it (.ci/run installs it)");
        }
        Assumptions.abort(msg);
        return null;
    }

    /** The browser {@link #executable()} would run, or {@code null}. */
    static Path find() {
        String named = System.getProperty("etw4j.chromium");
        if (named != null && !named.isBlank()) {
            return Files.isExecutable(Path.of(named)) ? Path.of(named) : null;
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * Starts a browser with an empty page of {@code width} x {@code height} CSS pixels and connects to that page;
     * {@code extraFlags} are added to the command line (e.g. a page that needs WebGL).
     */
    static HeadlessChromium start(int width, int height, String... extraFlags)
            throws IOException, InterruptedException {
        Path exe = executable();
        Path profile = Files.createTempDirectory("etw4j-chromium-");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(),
                "--headless", "--disable-gpu", "--hide-scrollbars", "--mute-audio", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--force-device-scale-factor=1",
                "--window-size=" + width + "," + height,
                "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                "--user-data-dir=" + profile));
        cmd.addAll(List.of(extraFlags));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--no-sandbox"); // Chromium refuses to run its sandbox as root (containers, CI)
        }
        cmd.add("about:blank");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile()).start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            List<String> lines = List.of();
            while (lines.size() < 2) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("chromium exited with " + p.exitValue() + ": "
                            + Files.readString(profile.resolve("chromium.log")));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("chromium wrote no DevToolsActivePort in " + START_TIMEOUT);
                }
                Thread.sleep(50);
                if (Files.exists(portFile)) {
                    lines = Files.readAllLines(portFile);
                }
            }
            int port = Integer.parseInt(lines.get(0).trim());
            HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()).body();
            String ws = null;
            for (JsonNode target : JSON.readTree(list)) {
                if ("page".equals(target.path("type").asText())) {
                    ws = target.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (ws == null) {
                throw new IllegalStateException("chromium has no page target: " + list);
            }
            HeadlessChromium[] self = new HeadlessChromium[1];
            Listener listener = new Listener(self);
            WebSocket socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT)
                    .buildAsync(URI.create(ws), listener).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            self[0] = new HeadlessChromium(p, profile, socket);
            listener.ready.complete(null);
            return self[0];
        } catch (Exception e) {
            stop(p);
            deleteTree(profile);
            if (e instanceof IOException io) {
                throw io;
            }
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
    }

    /** Sends a command and waits for its result ({@code result} member); a protocol error throws. */
    JsonNode send(String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode msg = JSON.createObjectNode();
        msg.put("id", id);
        msg.put("method", method);
        msg.set("params", JSON.valueToTree(params));
        try {
            socket.sendText(JSON.writeValueAsString(msg), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            JsonNode reply = answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error"));
            }
            return reply.path("result");
        } catch (Exception e) {
            throw e instanceof RuntimeException r ? r : new IllegalStateException(method + ": " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    /** Enables the domains whose events are recorded. */
    void enableEvents() {
        send("Runtime.enable", Map.of());
        send("Log.enable", Map.of());
        send("Network.enable", Map.of());
        send("Page.enable", Map.of());
    }

    /** Navigates to {@code url} and waits for its load event. */
    void navigate(String url) throws InterruptedException {
        int before = events.size();
        JsonNode r = send("Page.navigate", Map.of("url", url));
        if (r.hasNonNull("errorText")) {
            throw new IllegalStateException("navigation to " + url + " failed: " + r.get("errorText"));
        }
        waitFor(() -> events().stream().skip(before) // a snapshot: events keep arriving
                .anyMatch(e -> "Page.loadEventFired".equals(e.path("method").asText())), "load event of " + url);
    }

    /** Evaluates a JavaScript expression in the page, returning its value (by value, promises awaited). */
    JsonNode evaluate(String expression) {
        JsonNode r = send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("evaluation threw: " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /** Waits until {@code condition} holds, polling; fails after {@link #TIMEOUT}. */
    void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Moves the mouse to (x, y) (CSS pixels of the viewport), optionally clicking there. */
    void mouse(double x, double y, boolean click) {
        send("Input.dispatchMouseEvent", Map.of("type", "mouseMoved", "x", x, "y", y));
        if (click) {
            send("Input.dispatchMouseEvent", Map.of("type", "mousePressed", "x", x, "y", y, "button", "left",
                    "clickCount", 1));
            send("Input.dispatchMouseEvent", Map.of("type", "mouseReleased", "x", x, "y", y, "button", "left",
                    "clickCount", 1));
        }
    }

    /** A PNG of the page area {@code (x, y, width, height)} in CSS pixels of the document, beyond the viewport too. */
    byte[] screenshot(double x, double y, double width, double height) {
        JsonNode r = send("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", x, "y", y, "width", width, "height", height, "scale", 1)));
        return Base64.getDecoder().decode(r.path("data").asText());
    }

    /** Every event recorded since the start (method and params), in arrival order. */
    List<JsonNode> events() {
        return List.copyOf(events);
    }

    /**
     * What went wrong in the page among the recorded events, one line each: uncaught exceptions, console errors,
     * assertions and warnings, browser log errors and warnings but those {@code toleratedLog} accepts (by text), and
     * requests for a URL {@code allowedRequest} does not accept.
     */
    List<String> problems(java.util.function.Predicate<String> allowedRequest,
                          java.util.function.Predicate<String> toleratedLog) {
        List<String> problems = new ArrayList<>();
        for (JsonNode e : events()) {
            JsonNode p = e.path("params");
            switch (e.path("method").asText()) {
                case "Runtime.exceptionThrown" -> problems.add("uncaught: " + p.path("exceptionDetails"));
                case "Runtime.consoleAPICalled" -> {
                    String type = p.path("type").asText();
                    if (type.equals("error") || type.equals("assert") || type.equals("warning")) {
                        problems.add("console." + type + ": " + p.path("args"));
                    }
                }
                case "Log.entryAdded" -> {
                    String level = p.path("entry").path("level").asText();
                    String text = p.path("entry").path("text").asText();
                    if ((level.equals("error") || level.equals("warning")) && !toleratedLog.test(text)) {
                        problems.add("log " + level + ": " + text);
                    }
                }
                case "Network.requestWillBeSent" -> {
                    String url = p.path("request").path("url").asText();
                    if (!allowedRequest.test(url)) {
                        problems.add("request not allowed: " + url);
                    }
                }
                default -> {
                }
            }
        }
        return problems;
    }

    /** Clears the recorded events. */
    void clearEvents() {
        events.clear();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            socket.abort();
        } finally {
            stop(process);
            deleteTree(profile);
        }
    }

    private static void stop(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Collects a message's fragments; answers go to their command's future, events to the list. */
    private static final class Listener implements WebSocket.Listener {
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        private final HeadlessChromium[] owner;
        private final StringBuilder text = new StringBuilder();

        Listener(HeadlessChromium[] owner) {
            this.owner = owner;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String msg = text.toString();
                text.setLength(0);
                ready.join(); // no message can name a command before the owner exists; events may, so wait
                try {
                    JsonNode n = JSON.readTree(msg);
                    if (n.has("id")) {
                        CompletableFuture<JsonNode> f = owner[0].pending.get(n.get("id").asInt());
                        if (f != null) {
                            f.complete(n);
                        }
                    } else {
                        owner[0].events.add(n);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            ws.request(1);
            return null;
        }
    }
}
