package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.config.RecourseConfig;
import io.recourse.ingress.InputBounds;
import io.recourse.kit.DeadLetters;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No record can kill a stream thread (DESIGN §3): the hostile inputs of an outside attack, each
 * published to a running Recourse on a real broker with {@code exactly_once_v2} — a frame just
 * under the broker's {@code message.max.bytes} (its dead letter would exceed the producer's
 * {@code max.request.size}), control records of every input type with a null key and a 700 KB
 * id, valid-looking frames of one turn with 200,000-character identity fields, a 999-deep
 * payload, and a stderr line of {@code 1e400} (beyond a double's range). Each is dead-lettered with its reason (the huge ones truncated, with their original
 * length and SHA-256), Streams stays RUNNING, and a normal failing turn published after them is
 * still classified.
 */
public class PoisonPillIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static EmbeddedTestBroker broker;

    @TempDir
    public Path stateDir;

    @BeforeAll
    public static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    public static void stopBroker() {
        broker.close();
    }

    @Test
    public void every_hostile_input_is_dead_lettered_and_the_service_keeps_classifying() throws Exception {
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "1",
                RecourseConfig.OWNER_PARTITIONS, "1",
                RecourseConfig.METRICS_PORT, "-1",
                RecourseConfig.APPLICATION_ID, "recourse-poison-" + UUID.randomUUID(),
                RecourseConfig.STATE_DIR, stateDir.toString()));
        String frames = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        String huge = "x".repeat(700_000);
        // hostile record → the DLQ reason it must get (its dead letter is found by source topic and offset:
        // the record's own marker header must not travel on, DESIGN §3)
        Map<String, String> expected = new LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> hostile = new ArrayList<>();

        // (1) a frame of 1,048,480 bytes: oversized, and its dead letter must be truncated to fit
        byte[] big = new byte[1_048_480];
        java.util.Arrays.fill(big, (byte) 'a');
        hostile.add(record(frames, "pp-big/1", big, "big-frame"));
        expected.put("big-frame", "oversized");

        // (2) a control of every input type with a null key and a ~700 KB id
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_SESSION_CONTROLS), null,
                bytes("{\"action\":\"cancel_retry\",\"session_id\":\"" + huge + "\"}"), "session-control"));
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_KANBAN_DISPATCH_ACKS), null,
                bytes("{\"command_id\":\"" + huge + "\",\"status\":\"dispatched\",\"session_id\":\"s\"}"), "kanban-ack"));
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_OFFICE_RUN_REQUESTS), null,
                bytes("{\"request_id\":\"r\",\"run_id\":\"" + huge + "\",\"workspace_id\":\"w\",\"dynamic_profile_id\":\"d\","
                        + "\"occurred_at\":\"2026-06-01T12:00:00Z\"}"), "run-request"));
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_OFFICE_RUN_CONTROLS), null,
                bytes("{\"run_id\":\"" + huge + "\",\"workspace_id\":\"w\",\"action\":\"cancel\",\"expected_attempt\":1,"
                        + "\"occurred_at\":\"2026-06-01T12:00:00Z\"}"), "run-control"));
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_OFFICE_DISPATCH_ACKS), null,
                bytes("{\"command_id\":\"c\",\"status\":\"dispatched\",\"run_id\":\"r\",\"workspace_id\":\"" + huge + "\","
                        + "\"occurred_at\":\"2026-06-01T12:00:00Z\"}"), "office-ack"));
        for (String name : List.of("session-control", "kanban-ack", "run-request", "run-control", "office-ack")) {
            expected.put(name, "invalid_key");
        }
        // ... and with a proper key: the id itself is refused at parse
        hostile.add(record(config.topicName(RecourseConfig.TOPIC_SESSION_CONTROLS), "s-1",
                bytes("{\"action\":\"cancel_retry\",\"session_id\":\"" + huge + "\"}"), "session-control-keyed"));
        expected.put("session-control-keyed", "invalid_session_control");

        // (3) six frames of one turn, each under the frame bound, each with a 200,000-character identity field
        String longId = "i".repeat(200_000);
        String[] fields = {"agent_type", "workspace_id", "run_id", "task_id", "agent_profile_id", "execution_profile_id"};
        for (int i = 0; i < fields.length; i++) {
            ObjectNode f = stderrFrame("pp-ids", 1, i + 1);
            f.put(fields[i], longId);
            hostile.add(record(frames, "pp-ids/1", bytes(f.toString()), "ids-" + fields[i]));
            expected.put("ids-" + fields[i], "invalid_field");
        }

        // (4) a payload nested 999 deep
        ObjectNode deep = stderrFrame("pp-deep", 1, 1);
        String deepValue = deep.toString().replace("{\"line\":\"boom\"}",
                "{\"deep\":" + "[".repeat(999) + "1" + "]".repeat(999) + "}");
        hostile.add(record(frames, "pp-deep/1", bytes(deepValue), "deep"));
        expected.put("deep", "invalid_json");

        // (5) a stderr line that is a number beyond a double's range (no decimal or RFC 8785 form)
        ObjectNode infinite = stderrFrame("pp-number", 1, 1);
        String infiniteValue = infinite.toString().replace("{\"line\":\"boom\"}", "{\"line\":1e400}");
        hostile.add(record(frames, "pp-number/1", bytes(infiniteValue), "number-out-of-range"));
        expected.put("number-out-of-range", "invalid_field");

        JsonNode failing = firstFailingCorpusSequence();
        String failingSession = failing.get("frames").get(0).get("session_id").asText();

        try (RecourseRunner runner = new RecourseRunner(config).start();
                KafkaProducer<byte[], byte[]> producer = producer()) {
            // when every hostile record is published, and then a normal failing turn
            Map<String, String> nameAt = new LinkedHashMap<>();
            for (ProducerRecord<byte[], byte[]> r : hostile) {
                var meta = producer.send(r).get();
                nameAt.put(meta.topic() + "@" + meta.offset(), new String(r.headers().lastHeader("poison").value(),
                        StandardCharsets.UTF_8));
            }
            for (JsonNode f : failing.get("frames")) {
                producer.send(new ProducerRecord<>(frames, bytes(f.get("session_id").asText() + "/"
                        + f.get("prompt_generation").asInt()), bytes(f.toString()))).get();
            }

            // then each hostile record is in the DLQ with its reason
            List<ConsumerRecord<byte[], byte[]>> dead = readUntil(config.topicName(RecourseConfig.TOPIC_DLQ), expected.size(),
                    records -> records.size() >= expected.size());
            Map<String, String> reasons = new LinkedHashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> byName = new LinkedHashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                assertThat(r.headers().lastHeader("poison")).as("an input header in a dead letter").isNull();
                String name = nameAt.get(DeadLetters.header(r.headers(), DeadLetters.SOURCE_TOPIC) + "@"
                        + DeadLetters.header(r.headers(), DeadLetters.SOURCE_OFFSET));
                reasons.put(name, DeadLetters.header(r.headers(), DeadLetters.ERROR_CODE));
                byName.put(name, r);
            }
            assertThat(reasons).isEqualTo(expected);

            // the big frame's dead letter is truncated to the DLQ bound, with the original's length and digest
            ConsumerRecord<byte[], byte[]> bigLetter = byName.get("big-frame");
            assertThat(DeadLetters.header(bigLetter.headers(), DeadLetters.TRUNCATED)).isEqualTo("true");
            assertThat(DeadLetters.header(bigLetter.headers(), DeadLetters.ORIGINAL_LENGTH)).isEqualTo("1048480");
            assertThat(DeadLetters.header(bigLetter.headers(), DeadLetters.ORIGINAL_SHA256))
                    .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(big)));
            assertThat(bigLetter.value().length).isLessThan(config.dlqMaxRecordBytes()).isGreaterThan(900_000);
            // a field-bound rejection names the field, never its value
            assertThat(DeadLetters.header(byName.get("ids-run_id").headers(), DeadLetters.ERROR_MESSAGE))
                    .isEqualTo(InputBounds.invalidId("run_id"));
            assertThat(DeadLetters.header(byName.get("deep").headers(), DeadLetters.ERROR_MESSAGE))
                    .isEqualTo(InputBounds.tooDeep("frame value"));
            assertThat(DeadLetters.header(byName.get("number-out-of-range").headers(), DeadLetters.ERROR_MESSAGE))
                    .isEqualTo("field payload " + InputBounds.NUMBER_RULE);

            // and the normal turn after them is classified, with the service still running
            List<ConsumerRecord<byte[], byte[]>> classified = readUntil(config.topicName(RecourseConfig.TOPIC_CLASSIFICATIONS), 1,
                    records -> records.stream().anyMatch(r -> failingSession.equals(new String(r.key(), StandardCharsets.UTF_8))));
            assertThat(classified).isNotEmpty();
            assertThat(runner.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(runner.streams().metadataForLocalThreads()).isNotEmpty()
                    .allSatisfy(t -> assertThat(t.threadState()).isEqualTo("RUNNING"));
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, byte[] value, String name) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, key == null ? null : bytes(key), value);
        r.headers().add("poison", bytes(name));
        return r;
    }

    private static ObjectNode stderrFrame(String session, int generation, long seq) {
        ObjectNode f = MAPPER.createObjectNode();
        f.put("session_id", session).put("prompt_generation", generation).put("seq", seq)
                .put("occurred_at", "2026-06-01T12:00:00Z").put("source", "stderr");
        f.putObject("payload").put("line", "boom");
        return f;
    }

    private static JsonNode firstFailingCorpusSequence() throws Exception {
        try (InputStream in = PoisonPillIT.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!raw.isBlank()) {
                    JsonNode line = MAPPER.readTree(raw);
                    if ("failed".equals(line.path("expected").path("outcome").asText())
                            && line.get("frames").get(0).get("prompt_generation").asInt() >= 1) {
                        return line;
                    }
                }
            }
        }
        throw new AssertionError("the corpus has no failing sequence");
    }

    /** Reads {@code topic} from the beginning with {@code read_committed} until {@code done}. */
    private static List<ConsumerRecord<byte[], byte[]>> readUntil(String topic, int atLeast,
            java.util.function.Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 << 20);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !consumer.partitionsFor(topic).isEmpty());
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                return out.size() >= atLeast && done.test(out);
            });
            return out;
        }
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 << 20),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
