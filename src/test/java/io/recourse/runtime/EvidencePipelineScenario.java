package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.avro.Classification;
import io.recourse.avro.SessionEvent;
import io.recourse.classification.Classifier;
import io.recourse.classification.TurnClassifier;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.EvidenceCounters;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.FrameParser;
import io.recourse.kit.DeadLetters;
import io.recourse.ingress.streams.FrameAdmission;
import io.recourse.kit.AvroSerde;
import io.recourse.topology.RecourseTopology;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evidence stage end to end on a real broker with exactly_once_v2 (DESIGN §§2–4): every
 * corpus sequence (shifted onto the clock) plus 100 malformed frames. Exactly one classification
 * per failing turn and none for completed or cancelled ones; one TurnStarted and one TurnOutcome per
 * turn of generation ≥ 1 on the session-keyed repartition topic; every malformed frame in the DLQ
 * with its reason. Outputs are read with {@code read_committed}. Subclasses supply the broker.
 */
public abstract class EvidencePipelineScenario {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant CORPUS_BASE = Instant.parse("2026-06-01T12:00:00Z");
    private static final int MALFORMED = 100;
    private static final int FRAME_MAX_BYTES = 8192;

    @TempDir
    public Path stateDir;

    public abstract TestBroker broker();

    /** The classifier the topology runs with: the shipped catalogue's. */
    public TurnClassifier classifier() {
        return Classifier.withDefaultCatalogue();
    }

    @Test
    public void every_corpus_turn_gets_one_start_and_one_outcome_and_each_failure_one_classification() throws Exception {
        String app = "recourse-evidence-it-" + UUID.randomUUID();
        Map<String, String> settings = new HashMap<>(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker().bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "3",
                RecourseConfig.OWNER_PARTITIONS, "2",
                RecourseConfig.FRAME_MAX_BYTES, String.valueOf(FRAME_MAX_BYTES),
                RecourseConfig.APPLICATION_ID, app,
                RecourseConfig.STATE_DIR, stateDir.toString()));
        // keep the repartition topic's records readable for the assertions
        settings.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, String.valueOf(Long.MAX_VALUE));
        RecourseConfig config = RecourseConfig.of(settings);
        TurnClassifier classifier = classifier();
        String frames = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);

        List<JsonNode> corpus = corpus();
        Set<String> failing = new TreeSet<>();
        Map<String, String> expectedCodes = new TreeMap<>();
        Set<String> notFailing = new TreeSet<>();
        Set<String> turns = new TreeSet<>();
        Duration shift = Duration.between(CORPUS_BASE, Instant.now());

        try (RecourseRunner runner = new RecourseRunner(config, c -> RecourseTopology.build(c,
                RecourseTopology.Options.with(new RecourseMeters(new EvidenceCounters(new SimpleMeterRegistry())))
                        .withAdmission(FrameAdmission.parsing(new FrameParser(c.frameMaxBytes()))).withClassifier(classifier))).start();
                KafkaProducer<byte[], byte[]> producer = producer()) {
            assertThat(config.processingGuarantee()).isEqualTo("exactly_once_v2");

            // when every corpus sequence is published, its occurred_at shifted onto the clock
            for (JsonNode line : corpus) {
                String session = null;
                for (JsonNode f : line.get("frames")) {
                    ObjectNode frame = f.deepCopy();
                    frame.put("occurred_at", Instant.parse(f.get("occurred_at").asText()).plus(shift).toString());
                    session = frame.get("session_id").asText();
                    int gen = frame.get("prompt_generation").asInt();
                    if (gen >= 1) {
                        turns.add(session + "/" + gen);
                    }
                    producer.send(new ProducerRecord<>(frames, bytes(session + "/" + gen), bytes(frame.toString())));
                }
                if ("failed".equals(line.get("expected").get("outcome").asText())) {
                    failing.add(session);
                    expectedCodes.put(session, line.get("expected").get("code").asText());
                } else {
                    notFailing.add(session);
                }
            }
            // and 100 malformed frames, cycling through the DLQ reasons
            Map<String, String> expectedReasons = new TreeMap<>();
            for (int i = 0; i < MALFORMED; i++) {
                DlqReason reason = DlqReason.values()[i % DlqReason.values().length];
                String[] record = malformed(reason, "bad-" + i);
                producer.send(new ProducerRecord<>(frames, bytes(record[0]), bytes(record[1])));
                expectedReasons.put("bad-" + i, reason.wire());
            }
            producer.flush();

            // then the DLQ holds every malformed frame with its reason
            List<ConsumerRecord<byte[], byte[]>> dead = awaitRecords(config.topicName(RecourseConfig.TOPIC_DLQ),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer(), MALFORMED);
            Map<String, String> deadReasons = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                String session = new String(r.key(), StandardCharsets.UTF_8).replaceAll("/\\d+$", "");
                deadReasons.put(session, DeadLetters.header(r.headers(), DeadLetters.ERROR_CODE));
            }
            assertThat(deadReasons).isEqualTo(expectedReasons);

            // and one TurnStarted and one TurnOutcome per turn of generation >= 1 on the session-keyed repartition topic
            String bySession = app + "-" + RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition";
            List<ConsumerRecord<String, SessionEvent>> events = awaitRecords(bySession, new StringDeserializer(),
                    AvroSerde.of(SessionEvent.class), 0, records -> count(records, "TurnOutcome").size() >= turns.size());
            assertThat(count(events, "TurnStarted")).as("TurnStarted per turn").containsOnlyKeys(turns).allSatisfy((t, n) -> assertThat(n).isEqualTo(1));
            assertThat(count(events, "TurnOutcome")).as("TurnOutcome per turn").containsOnlyKeys(turns).allSatisfy((t, n) -> assertThat(n).isEqualTo(1));
            assertThat(events).allSatisfy(r -> assertThat(r.key()).isEqualTo(sessionOf(r.value())));

            // and exactly one classification per failing turn, none for completed or cancelled ones
            List<ConsumerRecord<String, Classification>> classified = awaitRecords(
                    config.topicName(RecourseConfig.TOPIC_CLASSIFICATIONS), new StringDeserializer(),
                    AvroSerde.of(Classification.class), failing.size());
            Map<String, Long> perSession = classified.stream().collect(Collectors.groupingBy(ConsumerRecord::key, TreeMap::new,
                    Collectors.counting()));
            assertThat(perSession.keySet()).isEqualTo(failing);
            assertThat(perSession.values()).containsOnly(1L);
            assertThat(perSession.keySet()).doesNotContainAnyElementsOf(notFailing);
            Map<String, String> codes = new TreeMap<>();
            classified.forEach(r -> codes.put(r.key(), r.value().getCode()));
            assertThat(codes).as("the catalogue's code per failing corpus session").isEqualTo(expectedCodes);
            assertThat(runner.streams().state().isRunningOrRebalancing()).isTrue();
        }
    }

    /** Key and value of a malformed frame of session {@code session} for {@code reason}; the key always starts with the session. */
    private static String[] malformed(DlqReason reason, String session) {
        ObjectNode f = MAPPER.createObjectNode();
        f.put("session_id", session);
        f.put("prompt_generation", 1);
        f.put("seq", 1);
        f.put("occurred_at", Instant.now().toString());
        f.put("source", "stderr");
        f.set("payload", MAPPER.createObjectNode().put("line", "boom"));
        String key = session + "/1";
        switch (reason) {
            case INVALID_JSON -> {
                return new String[] {key, "{\"session_id\": oops"};
            }
            case MISSING_FIELD -> f.remove("seq");
            case INVALID_FIELD -> f.put("source", "carrier_pigeon");
            case KEY_MISMATCH -> key = session + "/2";
            case OVERSIZED -> f.put("padding", "x".repeat(FRAME_MAX_BYTES));
            case MISSING_ROUTING_IDENTITY -> f.put("profile_kind", "dynamic");
            case INVALID_KEY -> key = session;
        }
        return new String[] {key, f.toString()};
    }

    /** Turn key → how many events of {@code type} the topic holds for it. */
    private static Map<String, Integer> count(List<ConsumerRecord<String, SessionEvent>> events, String type) {
        Map<String, Integer> out = new TreeMap<>();
        for (ConsumerRecord<String, SessionEvent> r : events) {
            if (r.value().getEvent().getClass().getSimpleName().equals(type)) {
                out.merge(turnOf(r.value()), 1, Integer::sum);
            }
        }
        return out;
    }

    private static String turnOf(SessionEvent e) {
        io.recourse.avro.TurnContext c = context(e);
        return c.getSessionId() + "/" + c.getPromptGeneration();
    }

    private static String sessionOf(SessionEvent e) {
        return context(e).getSessionId();
    }

    private static io.recourse.avro.TurnContext context(SessionEvent e) {
        return io.recourse.evidence.streams.AvroMapping.contextOf(e);
    }

    private <K, V> List<ConsumerRecord<K, V>> awaitRecords(String topic, Deserializer<K> keys, Deserializer<V> values, int atLeast) {
        return awaitRecords(topic, keys, values, atLeast, records -> true);
    }

    /**
     * Reads {@code topic} with {@code read_committed} until it holds at least {@code atLeast} records and
     * {@code done} holds, then until the end offsets of that moment (so nothing committed later is missed).
     */
    private <K, V> List<ConsumerRecord<K, V>> awaitRecords(String topic, Deserializer<K> keys, Deserializer<V> values, int atLeast,
            java.util.function.Predicate<List<ConsumerRecord<K, V>>> done) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(props, keys, values)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !consumer.partitionsFor(topic).isEmpty());
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<K, V>> out = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                return out.size() >= atLeast && done.test(out);
            });
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
            });
            return out;
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1 << 20),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static List<JsonNode> corpus() throws IOException {
        try (InputStream in = EvidencePipelineScenario.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            List<JsonNode> lines = new ArrayList<>();
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
