package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.config.RecourseConfig;
import io.recourse.runtime.EmbeddedTestBroker;
import io.recourse.runtime.RecourseRunner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness on a real broker (DESIGN §10): queried right after Kafka Streams starts (state REBALANCING),
 * {@code /health/ready} and a keyed query answer {@code 503} with a reason and {@code Retry-After}; once
 * RUNNING, a store partition still restoring keeps it {@code 503 restoring}; when restoration is done it
 * is {@code 200}. Restoration is driven through the server's restoring-partitions supplier (the runner's
 * {@code RestoreProgress} plus a test count), so nothing depends on how long a real restore takes.
 */
class ReadinessIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void ready_is_503_with_a_reason_until_running_and_restored_then_200() throws Exception {
        try (EmbeddedTestBroker broker = EmbeddedTestBroker.start()) {
            RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                    RecourseConfig.TOPICS_CREATE, "true", RecourseConfig.TOPIC_PARTITIONS, "1",
                    RecourseConfig.OWNER_PARTITIONS, "1", RecourseConfig.STATE_DIR, dir.toString(),
                    RecourseConfig.METRICS_PORT, "-1"));
            AtomicInteger restoringForTest = new AtomicInteger();
            List<HttpResponse<String>> beforeRunning = new ArrayList<>();
            RecourseHttp[] server = new RecourseHttp[1];
            try (RecourseRunner runner = new RecourseRunner(config).withEndpoint(r -> {
                server[0] = new RecourseHttp(r::streams, r.metrics().registry(),
                        () -> r.restoreProgress().restoring() + restoringForTest.get(), Instant::now, null, "127.0.0.1", 0);
                // called right after KafkaStreams.start(): the first rebalance has not finished yet
                beforeRunning.add(get(server[0], "/health/ready"));
                beforeRunning.add(get(server[0], "/sessions/s1/recovery"));
                return server[0];
            }).start()) {
                for (HttpResponse<String> r : beforeRunning) {
                    assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(503);
                    assertThat(r.headers().firstValue("Retry-After")).hasValue("2");
                    assertThat(JSON.readTree(r.body()).get("reason").asText()).isIn("rebalancing", "not_running");
                }
                assertThat(JSON.readTree(beforeRunning.get(1).body()).get("error").asText()).isEqualTo("unavailable");

                restoringForTest.set(1);
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    HttpResponse<String> r = get(server[0], "/health/ready");
                    assertThat(r.statusCode()).isEqualTo(503);
                    JsonNode body = JSON.readTree(r.body());
                    assertThat(body.get("state").asText()).isEqualTo("RUNNING");
                    assertThat(body.get("reason").asText()).isEqualTo("restoring");
                    assertThat(body.get("restoring_partitions").asInt()).isPositive();
                    assertThat(r.headers().firstValue("Retry-After")).hasValue("2");
                });
                HttpResponse<String> query = get(server[0], "/sessions/s1/recovery");
                assertThat(query.statusCode()).isEqualTo(503);
                assertThat(JSON.readTree(query.body()).get("reason").asText()).isEqualTo("restoring");

                restoringForTest.set(0);
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    HttpResponse<String> r = get(server[0], "/health/ready");
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    assertThat(r.headers().firstValue("Retry-After")).isEmpty();
                    assertThat(JSON.readTree(r.body()).get("ready").asBoolean()).isTrue();
                });
                assertThat(get(server[0], "/sessions/s1/recovery").statusCode()).isEqualTo(404);
            }
        }
    }

    private HttpResponse<String> get(RecourseHttp server, String path) {
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + path);
            return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
