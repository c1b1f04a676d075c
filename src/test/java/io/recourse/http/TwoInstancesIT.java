package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.config.RecourseConfig;
import io.recourse.demo.RoutingDemo;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.routing.RouteConfigJson;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.RecourseRunner;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one application on the embedded broker, each with its own {@code application.server}
 * and HTTP port: once both are ready, a keyed query answers the same from both (the owner answers, the
 * other forwards), {@code /runs/{id}} finds the run from either, and {@code /overview} gathers both.
 */
class TwoInstancesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void every_query_answers_the_same_from_both_instances() throws Exception {
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir.resolve("broker")).start()) {
            int portA = freePort();
            int portB = freePort();
            try (RecourseRunner a = new RecourseRunner(config(broker, "a", portA)).withEndpoint(RecourseHttp::start).start();
                 RecourseRunner b = new RecourseRunner(config(broker, "b", portB)).withEndpoint(RecourseHttp::start).start()) {
                String baseA = "http://127.0.0.1:" + portA;
                String baseB = "http://127.0.0.1:" + portB;
                awaitReady(baseA);
                awaitReady(baseB);
                String ws = RoutingDemoScenario.WORKSPACE;
                try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                        new StringSerializer(), new ByteArraySerializer())) {
                    RecourseConfig c = config(broker, "a", portA);
                    p.send(new ProducerRecord<>(c.topicName(RecourseConfig.TOPIC_ROUTE_CONFIG), RoutingDemoScenario.PROFILE,
                            RouteConfigJson.write(RoutingDemoScenario.config()).getBytes(StandardCharsets.UTF_8))).get();
                    Thread.sleep(2000); // the global table first
                    p.send(new ProducerRecord<>(c.topicName(RecourseConfig.TOPIC_OFFICE_RUN_REQUESTS), ws,
                            RoutingDemo.runRequestJson("run-two", ws, Instant.now()).toString()
                                    .getBytes(StandardCharsets.UTF_8))).get();
                }
                JsonNode runs = awaitRuns(baseA + "/workspaces/" + ws + "/runs");
                assertThat(runs.get("runs").get(0).get("run_id").asText()).isEqualTo("run-two");
                HttpResponse<String> fromA = get(baseA + "/workspaces/" + ws + "/runs");
                HttpResponse<String> fromB = get(baseB + "/workspaces/" + ws + "/runs");
                assertThat(fromB.statusCode()).isEqualTo(200);
                assertThat(JSON.readTree(fromB.body())).isEqualTo(JSON.readTree(fromA.body()));
                JsonNode run = JSON.readTree(get(baseA + "/runs/run-two").body());
                assertThat(run.get("run_id").asText()).isEqualTo("run-two");
                assertThat(JSON.readTree(get(baseB + "/runs/run-two").body())).isEqualTo(run);
                // by the store's key: the workspace's owner answers, the other forwards there
                for (String base : List.of(baseA, baseB)) {
                    assertThat(JSON.readTree(get(base + "/workspaces/" + ws + "/runs/run-two").body())).isEqualTo(run);
                    assertThat(JSON.readTree(get(base + "/runs/run-two?workspace_id=" + ws).body())).isEqualTo(run);
                    assertThat(get(base + "/workspaces/" + ws + "/runs/no-such-run").statusCode()).isEqualTo(404);
                }
                assertThat(get(baseA + "/sessions/nobody/recovery").statusCode()).isEqualTo(404);
                assertThat(get(baseB + "/sessions/nobody/recovery").statusCode()).isEqualTo(404);
                assertThat(JSON.readTree(get(baseA + "/overview").body()).get("instances").asInt()).isEqualTo(2);
                assertThat(JSON.readTree(get(baseB + "/overview").body()).get("instances").asInt()).isEqualTo(2);
            }
        }
    }

    private RecourseConfig config(EmbeddedKafkaBroker broker, String name, int port) {
        return RecourseConfig.of(Map.ofEntries(
                Map.entry(RecourseConfig.INSTANCE_NAME, name), // static membership: one member id each
                Map.entry(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers()),
                Map.entry(RecourseConfig.TOPICS_CREATE, "true"),
                Map.entry(RecourseConfig.STATE_DIR, dir.resolve("state-" + name).toString()),
                Map.entry(RecourseConfig.APPLICATION_ID, "recourse-two-instances"),
                Map.entry(RecourseConfig.TOPIC_PARTITIONS, "2"),
                Map.entry(RecourseConfig.OWNER_PARTITIONS, "2"),
                Map.entry(RecourseConfig.HTTP_PORT, String.valueOf(port)),
                Map.entry(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port),
                Map.entry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "50")));
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void awaitReady(String base) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (get(base + "/health/ready").statusCode() != 200) {
            assertThat(System.nanoTime()).as("%s ready within 90 s", base).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private JsonNode awaitRuns(String url) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpResponse<String> r = get(url);
            if (r.statusCode() == 200 && JSON.readTree(r.body()).get("runs").size() > 0) {
                return JSON.readTree(r.body());
            }
            assertThat(System.nanoTime()).as("the run within 60 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
