package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingress stage on a real broker with exactly_once_v2: a malformed frame reaches
 * {@code recourse.dlq} exactly once (read with {@code read_committed}), the good frame is
 * processed, and the application keeps running. Subclasses supply the broker.
 */
public abstract class IngressDeadLetterScenario {

    private static final String GOOD = """
            {"session_id":"s1","prompt_generation":1,"seq":1,"occurred_at":"2026-11-30T08:00:00Z",
             "source":"stderr","payload":{"line":"boom"}}""";

    @TempDir
    public Path stateDir;

    public abstract TestBroker broker();

    @Test
    public void a_malformed_frame_reaches_the_dlq_exactly_once_and_the_good_frame_is_processed() throws Exception {
        String app = "recourse-it-" + UUID.randomUUID();
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker().bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.APPLICATION_ID, app,
                RecourseConfig.STATE_DIR, stateDir.toString()));
        String frames = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        String dlq = config.topicName(RecourseConfig.TOPIC_DLQ);

        try (RecourseRunner runner = new RecourseRunner(config).start();
                KafkaProducer<byte[], byte[]> producer = producer();
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers()))) {
            assertThat(config.processingGuarantee()).isEqualTo("exactly_once_v2");

            // when a good and a malformed frame are published
            byte[] badValue = "{\"session_id\": oops".getBytes(StandardCharsets.UTF_8);
            RecordMetadata good = producer.send(new ProducerRecord<>(frames, bytes("s1/1"), bytes(GOOD))).get();
            RecordMetadata bad = producer.send(new ProducerRecord<>(frames, bytes("s1/2"), badValue)).get();

            // then Recourse commits past both (the good one is processed, the thread survived the bad one)
            Map<TopicPartition, Long> expected = new java.util.HashMap<>();
            for (RecordMetadata sent : List.of(good, bad)) {
                expected.merge(new TopicPartition(frames, sent.partition()), sent.offset() + 1, Math::max);
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed =
                        admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata().get();
                expected.forEach((partition, offset) -> assertThat(committed.get(partition))
                        .as("committed offset of %s", partition)
                        .isNotNull().extracting(OffsetAndMetadata::offset).isEqualTo(offset));
            });

            // and the DLQ holds exactly the malformed frame, committed, with its bytes and reason
            List<ConsumerRecord<byte[], byte[]>> dead = readCommitted(dlq);
            assertThat(dead).hasSize(1);
            ConsumerRecord<byte[], byte[]> record = dead.get(0);
            assertThat(record.key()).isEqualTo(bytes("s1/2"));
            assertThat(record.value()).isEqualTo(badValue);
            assertThat(DeadLetters.header(record.headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_json");
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(frames);
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_PARTITION)).isEqualTo(String.valueOf(bad.partition()));
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo(String.valueOf(bad.offset()));
            assertThat(runner.streams().state().isRunningOrRebalancing()).isTrue();
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Every committed record of {@code topic}, read from the beginning to the last stable offset. */
    private List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
            });
            return out;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
