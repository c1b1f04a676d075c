package io.recourse.reliability;

import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Recourse as its own process, the way an operator starts it:
 * {@code java -cp <main class path> io.recourse.cli.RecourseCommand run -c recourse.properties}
 * against the harness's broker ({@code processing.guarantee=exactly_once_v2}). Each start logs
 * to its own file; {@link #kill()} is {@code kill -9}; {@link #wipeState()} deletes the Streams
 * state directory (the next start restores from the changelogs).
 */
final class RecourseProcess implements AutoCloseable {

    private final Path dir;
    private final Path stateDir;
    private final Path config;
    private final int metricsPort;
    private final String classPath;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private int starts;
    private final List<Path> logs = new ArrayList<>();

    RecourseProcess(Path dir, String classPath, String bootstrap, Map<String, String> overrides) throws IOException {
        this.dir = dir;
        this.classPath = classPath;
        this.stateDir = dir.resolve("streams-state");
        this.config = dir.resolve("recourse.properties");
        this.metricsPort = Ports.free();
        Files.createDirectories(dir);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("processing.guarantee", "exactly_once_v2");
        p.put("application.id", "recourse-reliability");
        p.put("state.dir", stateDir.toString());
        p.put("recourse.topics.create", "true");
        p.put("recourse.metrics.port", String.valueOf(metricsPort));
        // a killed member is noticed after the broker's minimum session timeout, not the 45 s default
        p.put("session.timeout.ms", "6000");
        p.put("heartbeat.interval.ms", "1500");
        p.putAll(overrides);
        try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            p.store(w, "reliability harness");
        }
    }

    int metricsPort() {
        return metricsPort;
    }

    /** Every log file written so far (one per start). */
    List<Path> logs() {
        return List.copyOf(logs);
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** Starts the process and waits until {@code /healthz} answers RUNNING (max {@code timeout}); returns the wait. */
    synchronized Duration start(Duration timeout) throws Exception {
        starts++;
        Path log = dir.resolve("recourse-" + starts + ".log");
        logs.add(log);
        List<String> cmd = List.of(Ports.java(), "-Xms128m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", classPath, "io.recourse.cli.RecourseCommand", "run", "-c", config.toString());
        long t0 = System.nanoTime();
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Process started = process;
        // a harness JVM that dies (or is stopped) takes its child processes with it
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        long deadline = t0 + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Recourse exited (" + process.exitValue() + ") during start " + starts + "; see " + log);
            }
            if ("RUNNING".equals(health())) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Recourse not RUNNING after " + timeout + " (start " + starts + "); see " + log);
            }
            Thread.sleep(250);
        }
    }

    /** The {@code /healthz} body (the Kafka Streams state), or {@code null} when the endpoint does not answer. */
    String health() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/healthz"))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
            return r.body().trim();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The {@code /metrics} scrape, or {@code null} when the endpoint does not answer. */
    String scrape() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** {@code kill -9}. */
    synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
        }
    }

    /** SIGTERM and wait (60 s). */
    synchronized void terminate() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Deletes the Streams state directory (call while stopped). */
    void wipeState() throws IOException {
        if (Files.exists(stateDir)) {
            try (Stream<Path> s = Files.walk(stateDir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        terminate();
    }
}
