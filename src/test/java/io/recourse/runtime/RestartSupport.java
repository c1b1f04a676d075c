package io.recourse.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * What the restart and failover integration tests share: polling on the test thread and a
 * {@code read_committed} reader of an output topic (only what a transaction committed counts).
 */
public final class RestartSupport {

    private RestartSupport() {
    }

    /** Awaitility on the test thread: the consumers are used from one thread only. */
    public static ConditionFactory await() {
        return Awaitility.await().pollInSameThread().pollInterval(Duration.ofMillis(100));
    }

    /** A {@code read_committed} consumer of every partition of one topic, from the beginning. */
    public static final class CommittedReader<V> implements AutoCloseable {

        private final KafkaConsumer<String, V> consumer;
        private final List<ConsumerRecord<String, V>> records = new ArrayList<>();

        public CommittedReader(String bootstrapServers, String topic, Deserializer<V> values) {
            consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), values);
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }

        /** Polls once for up to 100 ms; returns every record read so far. */
        public List<ConsumerRecord<String, V>> poll() {
            return poll(Duration.ofMillis(100));
        }

        /** Polls once for up to {@code timeout}; returns every record read so far. */
        public List<ConsumerRecord<String, V>> poll(Duration timeout) {
            consumer.poll(timeout).forEach(records::add);
            return records;
        }

        /** Every record read so far, without polling. */
        public List<ConsumerRecord<String, V>> records() {
            return records;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
