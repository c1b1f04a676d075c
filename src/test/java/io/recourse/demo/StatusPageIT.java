package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.http.RecourseHttp;
import io.recourse.routing.JitterSource;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
import io.recourse.topology.RecourseTopology;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instance's HTTP server and status page on the embedded broker: the routing demo's scenario
 * (two runs, its scripted dispatcher) plays until a run is parked; the JSON queries answer from the
 * stores (200, 404 for an unknown key, 400 for an invalid id), and the status page, rendered by a
 * real headless Chromium ({@code chromium --headless --dump-dom}), shows the workspace's provider
 * health grid and the parked run. Then a malformed frame becomes a dead letter, counted in
 * {@code recourse_dlq_records_total{reason="invalid_json"}}, and {@code recourse tail} decodes every
 * Recourse topic (Avro as JSON objects, the dead letter with its headers) and a changelog by its
 * schema fingerprint. The browser part is skipped when no {@code chromium} is installed
 * ({@code .ci/run} installs it).
 */
class StatusPageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void the_queries_and_the_status_page_show_the_routing_owners_state() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), 4);
        FreezableTime clock = new FreezableTime(time);
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir.resolve("broker")).start()) {
            RecourseConfig config = RecourseConfig.of(Map.ofEntries(
                    Map.entry(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers()),
                    Map.entry(RecourseConfig.TOPICS_CREATE, "true"),
                    Map.entry(RecourseConfig.STATE_DIR, dir.resolve("streams").toString()),
                    Map.entry(RecourseConfig.APPLICATION_ID, "recourse-status-page"),
                    Map.entry(RecourseConfig.TOPIC_PARTITIONS, "2"),
                    Map.entry(RecourseConfig.OWNER_PARTITIONS, "2"),
                    Map.entry(RecourseConfig.HTTP_PORT, String.valueOf(port)),
                    Map.entry(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port),
                    Map.entry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10"),
                    Map.entry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "20"),
                    Map.entry(RecourseConfig.DISPATCH_TIMEOUT_MS, "90000")));
            try (RecourseRunner runner = new RecourseRunner(config,
                    c -> RecourseTopology.build(c, RecourseTopology.Options.with(RecourseMeters.global())
                            .withRecordClock(time::scaled).withRoutingJitter(JitterSource.none())), clock)
                    .withEndpoint(RecourseHttp::start)) {
                runner.start();
                String base = "http://127.0.0.1:" + port;
                assertThat(get(base + "/health/ready").statusCode()).isEqualTo(200);
                try (RoutingDispatcher d = new RoutingDispatcher(runner, config, time, 2)) {
                    d.publishRouteConfig(RoutingDemoScenario.config());
                    Thread player = new Thread(() -> {
                        try {
                            d.run(Instant.now().plusSeconds(120));
                        } catch (Exception e) {
                            // stopped by the test (interrupt) or past its deadline
                        }
                    }, "status-page-scenario");
                    player.setDaemon(true);
                    player.start();
                    try {
                        JsonNode overview = awaitParkedRun(base);
                        clock.freeze(); // no wake while the page is looked at (a loaded machine is slow)
                        String ws = RoutingDemoScenario.WORKSPACE;
                        String runId = overview.get("parked_runs").get(0).get("run_id").asText();
                        assertThat(overview.get("workspaces").get(0).get("workspace_id").asText()).isEqualTo(ws);

                        assertThat(get(base + "/workspaces/" + ws + "/parked-runs").body()).contains(runId);
                        if (chromiumPath() == null) {
                            System.err.println("chromium is not installed (.ci/run installs it): the status page is not rendered");
                        } else {
                        Path png = Path.of("target", "status-page.png").toAbsolutePath();
                        chromium(base + "/", "--screenshot=" + png, "--window-size=1200,900");
                        String dom = chromium(base + "/", "--dump-dom");
                        assertThat(dom).contains("data-loaded=\"true\"", "workspace " + ws, runId, "ladder step:");
                        assertThat(dom).containsPattern("data-state=\"(short_retry|degraded|user_action_required)\"");
                        assertThat(dom).as("the parked runs table").contains("<div id=\"parked\"><table>");
                        }
                        clock.thaw();
                        HttpResponse<String> health = answered(base + "/workspaces/" + ws + "/provider-health");
                        assertThat(health.statusCode()).isEqualTo(200);
                        assertThat(JSON.readTree(health.body()).get("health").size()).isPositive();
                        HttpResponse<String> runs = answered(base + "/workspaces/" + ws + "/runs");
                        assertThat(JSON.readTree(runs.body()).get("runs").size()).isEqualTo(2);
                        assertThat(answered(base + "/workspaces/" + ws + "/parked-runs").statusCode()).isEqualTo(200);
                        HttpResponse<String> run = answered(base + "/runs/" + runId);
                        assertThat(run.statusCode()).isEqualTo(200);
                        assertThat(JSON.readTree(run.body()).get("workspace_id").asText()).isEqualTo(ws);
                        assertThat(answered(base + "/runs/no-such-run").statusCode()).isEqualTo(404);
                        assertThat(answered(base + "/workspaces/no-such-ws/provider-health").statusCode()).isEqualTo(404);
                        assertThat(answered(base + "/sessions/no-such-session/recovery").statusCode()).isEqualTo(404);
                        assertThat(answered(base + "/sessions/a%23b/recovery").statusCode()).isEqualTo(400);
                        assertThat(answered(base + "/workspaces/a%01b/runs").statusCode()).isEqualTo(400);
                        assertThat(JSON.readTree(answered(base + "/openapi.json").body()).get("paths").has("/runs/{run_id}")).isTrue();
                        assertThat(answered(base + "/metrics").body()).contains("kafka_stream_");
                        assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);

                        // a dead letter: counted by reason, and decoded by tail with its headers
                        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]>(Map.of(
                                "bootstrap.servers", broker.bootstrapServers()),
                                new org.apache.kafka.common.serialization.ByteArraySerializer(),
                                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
                            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                    config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES), "k".getBytes(StandardCharsets.UTF_8),
                                    "not json".getBytes(StandardCharsets.UTF_8))).get();
                        }
                        String reason = awaitDeadLetterReason(base);
                        java.util.Set<String> scraped = io.recourse.http.GrafanaDashboardTest.sampleNames(get(base + "/metrics").body());
                        // the topic-level counters show after Micrometer's next scan of Kafka's metrics (each minute)
                        assertThat(scraped).as("the dashboard's metrics registered only once partitions are assigned")
                                .contains("kafka_consumer_fetch_manager_records_lag_max", "recourse_provider_health_scopes");

                        io.recourse.kit.Topics topics = io.recourse.kit.Topics.from(config);
                        for (io.recourse.kit.Topic<?, ?> t : topics.all()) {
                            java.util.List<JsonNode> lines = tail(broker.bootstrapServers(), t.name());
                            for (JsonNode line : lines) {
                                assertThat(line.get("topic").asText()).isEqualTo(t.name());
                                assertThat(line.has("value_base64")).as("%s decoded", t.name()).isFalse();
                                if (t.valueSerde() instanceof io.recourse.kit.AvroSerde<?>) {
                                    assertThat(line.get("value").isObject() || line.get("value").isNull())
                                            .as("%s: Avro as JSON (or a tombstone)", t.name()).isTrue();
                                }
                            }
                            if (t == topics.dlq()) {
                                assertThat(lines).anySatisfy(l -> {
                                    assertThat(l.get("headers").get("recourse.error.code").asText()).isEqualTo(reason);
                                    assertThat(l.get("value").asText()).isEqualTo("not json");
                                });
                            }
                            if (t == topics.officeProviderHealth() || t == topics.officeRouteCommands() || t == topics.officeRunState()
                                    || t == topics.officeRouteAttempts() || t == topics.officeParkedRuns() || t == topics.classifications()
                                    || t == topics.routeConfigValidated()) {
                                assertThat(lines).as("%s has records", t.name()).isNotEmpty();
                            }
                        }
                        java.util.List<JsonNode> changelog = tail(broker.bootstrapServers(),
                                "recourse-status-page-recourse-routing-runs-changelog");
                        assertThat(changelog).as("a changelog decodes by fingerprint").isNotEmpty()
                                .allSatisfy(l -> assertThat(l.get("value_type").asText()).isEqualTo("RoutingRunValue"));

                    } finally {
                        player.interrupt();
                        player.join(10_000);
                    }
                }
            }
        }
    }

    /** The Streams clock, stopped while the browser looks (punctuators and the page's "now" read it). */
    static final class FreezableTime implements org.apache.kafka.common.utils.Time {
        private final ScaledTime delegate;
        private volatile long frozenAt = -1;

        FreezableTime(ScaledTime delegate) {
            this.delegate = delegate;
        }

        void freeze() {
            frozenAt = delegate.milliseconds();
        }

        void thaw() {
            frozenAt = -1;
        }

        @Override
        public long milliseconds() {
            long f = frozenAt;
            return f >= 0 ? f : delegate.milliseconds();
        }

        @Override
        public long nanoseconds() {
            return delegate.nanoseconds();
        }

        @Override
        public void sleep(long ms) {
            delegate.sleep(ms);
        }
    }

    private JsonNode awaitParkedRun(String base) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            HttpResponse<String> r = get(base + "/overview");
            if (r.statusCode() == 200) {
                JsonNode o = JSON.readTree(r.body());
                if (o.get("parked_runs").size() > 0 && o.get("workspaces").size() > 0) {
                    return o;
                }
            }
            assertThat(System.nanoTime()).as("a parked run within 90 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** Waits for {@code recourse_dlq_records_total{…,topic="recourse.agent-frames"}}; returns its reason label. */
    private String awaitDeadLetterReason(String base) throws Exception {
        java.util.regex.Pattern sample = java.util.regex.Pattern.compile(
                "(?m)^recourse_dlq_records_total\\{reason=\"([a-z_]+)\",topic=\"recourse\\.agent-frames\"} 1\\.0$");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            String body = get(base + "/metrics").body();
            java.util.regex.Matcher m = sample.matcher(body);
            if (m.find()) {
                return m.group(1);
            }
            assertThat(System.nanoTime()).as("a dead-letter count within 30 s; dlq lines: %s",
                    body.lines().filter(l -> l.contains("dlq")).toList()).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** {@code recourse tail TOPIC --from-beginning} through the CLI, as parsed JSON lines. */
    private static java.util.List<JsonNode> tail(String bootstrap, String topic) throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cli = io.recourse.cli.RecourseCommand.commandLine();
        cli.setOut(new java.io.PrintWriter(out));
        int exit = cli.execute("tail", topic, "--from-beginning", "--bootstrap-server", bootstrap);
        assertThat(exit).as("tail %s", topic).isZero();
        java.util.List<JsonNode> lines = new java.util.ArrayList<>();
        for (String l : out.toString().split("\n")) {
            if (!l.isBlank()) {
                lines.add(JSON.readTree(l));
            }
        }
        return lines;
    }

    /** GET, waiting out {@code 503}s as a client would (the time jump after the thaw can start a rebalance). */
    private HttpResponse<String> answered(String url) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpResponse<String> r = get(url);
            if (r.statusCode() != 503 || System.nanoTime() > deadline) {
                return r;
            }
            assertThat(r.headers().firstValue("Retry-After")).as("a 503 says when to retry").isPresent();
            Thread.sleep(500);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Runs headless Chromium on {@code url} (the page's scripts run within a 1.5 s virtual-time budget); returns its stdout. */
    static String chromium(String url, String... args) throws Exception {
        String exe = chromiumPath();
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(exe, "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=1500"));
        cmd.addAll(java.util.List.of(args));
        cmd.add(url);
        Path out = Files.createTempFile("chromium", ".out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        return text;
    }

    private static String chromiumPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : new String[] {"chromium", "chromium-browser"}) {
                File f = new File(dir, name);
                if (f.canExecute()) {
                    return f.getPath();
                }
            }
        }
        return null;
    }
}
