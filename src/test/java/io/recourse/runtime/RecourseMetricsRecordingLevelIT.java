package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /metrics} of a running instance at {@code metrics.recording.level} DEBUG and TRACE (DESIGN §10;
 * INFO is {@link RecourseRunnerIT}'s): the full topology processes the corpus on the embedded broker,
 * then the scrape answers 200 with Kafka Streams' and Recourse's own metrics. At these levels Kafka
 * Streams adds task, processor-node, state-store and RocksDB metrics, among them RocksDB's
 * {@code number-open-files}, a constant {@code -1} that as a counter made every scrape fail.
 */
class RecourseMetricsRecordingLevelIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant CORPUS_BASE = Instant.parse("2026-06-01T12:00:00Z");

    private static EmbeddedTestBroker broker;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"DEBUG", "TRACE"})
    void metrics_scrape_succeeds_after_traffic_at_every_recording_level(String level) throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "1",
                RecourseConfig.OWNER_PARTITIONS, "1",
                RecourseConfig.APPLICATION_ID, "recourse-metrics-level-" + UUID.randomUUID(),
                RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.METRICS_PORT, "0"));
        settings.put(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, level);
        RecourseConfig config = RecourseConfig.of(settings);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        java.util.concurrent.atomic.AtomicReference<io.recourse.http.RecourseHttp> server = new java.util.concurrent.atomic.AtomicReference<>();
        try (RecourseRunner runner = new RecourseRunner(config).withEndpoint(r -> {
                    server.set(io.recourse.http.RecourseHttp.start(r));
                    return server.get();
                }).start();
                KafkaStreamsMetrics refresh = new KafkaStreamsMetrics(runner.streams());
                KafkaProducer<byte[], byte[]> producer = producer()) {
            // when the corpus is processed (every failing turn classified)
            Duration shift = Duration.between(CORPUS_BASE, Instant.now());
            for (JsonNode line : corpus()) {
                for (JsonNode f : line.get("frames")) {
                    ObjectNode frame = f.deepCopy();
                    frame.put("occurred_at", Instant.parse(f.get("occurred_at").asText()).plus(shift).toString());
                    String key = frame.get("session_id").asText() + "/" + frame.get("prompt_generation").asInt();
                    producer.send(new ProducerRecord<>(config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES), bytes(key),
                            bytes(frame.toString())));
                }
            }
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> runner.metrics().registry()
                    .find(RecourseMeters.CLASSIFICATIONS).counters().stream().mapToDouble(Counter::count).sum() > 0);
            // and the Kafka Streams meters registered since the start are bound, as the runner's binder does
            // on its next refresh (every 60 s)
            refresh.bindTo(runner.metrics().registry());
            // then the scrape succeeds with Kafka Streams' and Recourse's metrics
            URI uri = URI.create("http://127.0.0.1:" + server.get().address().getPort() + "/metrics");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(r.statusCode()).as("status; body: %s", r.body().lines().limit(3).toList()).isEqualTo(200);
            assertThat(r.body()).contains("kafka_stream_", "recourse_classifications_total", "evidence_expired_total",
                    "jvm_memory_used_bytes");
            assertThat(r.body()).as("the %s-level task and RocksDB metrics", level)
                    .contains("kafka_stream_task_", "kafka_stream_state_bytes_written_total")
                    .doesNotContain("kafka_stream_state_number_open_files");
            assertThat(runner.streams().metrics().keySet()).as("Kafka Streams does report number-open-files")
                    .anySatisfy(n -> assertThat(n.name()).isEqualTo("number-open-files"));
        }
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Iterable<JsonNode> corpus() throws IOException {
        try (InputStream in = RecourseMetricsRecordingLevelIT.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            java.util.List<JsonNode> lines = new java.util.ArrayList<>();
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!raw.isBlank()) {
                    lines.add(MAPPER.readTree(raw));
                }
            }
            return lines;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
