package io.recourse.bench;

import io.recourse.avro.RecoveryState;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.PollThread;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The {@code read_committed} consumer of a run's outputs, on its own thread: matches outputs to
 * the failing turns' terminal frames (pass-through: the copy of that frame; full: its
 * Classification, and its RecoveryState {@code scheduled}) and notes when the sentinels appear.
 */
final class BenchObserver implements AutoCloseable {
    private record Expected(long sentNanos, int hash, int sentinelPartition) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<String> topics;
    private final Scenario.Kind kind;
    private final String classifications;
    private final String unclassified;
    private final String recoveryState;
    private final Map<String, Expected> expected = new ConcurrentHashMap<>();
    private final Set<Integer> sentinels = ConcurrentHashMap.newKeySet();
    private final List<Double> classification = new ArrayList<>();
    private final List<Double> scheduled = new ArrayList<>();
    private final Set<String> seenClassified = ConcurrentHashMap.newKeySet();
    private final Set<String> seenScheduled = ConcurrentHashMap.newKeySet();
    private final AvroSerde<RecoveryState> recoverySerde = AvroSerde.of(RecoveryState.class);
    private final AvroSerde<io.recourse.avro.Classification> classificationSerde = AvroSerde.of(io.recourse.avro.Classification.class);
    private final AvroSerde<io.recourse.avro.UnclassifiedEvidence> unclassifiedSerde = AvroSerde.of(io.recourse.avro.UnclassifiedEvidence.class);
    private volatile long endNanos;
    private PollThread poller;

    BenchObserver(Map<String, Object> client, List<String> topics, Scenario.Kind kind, String classifications,
             String unclassified, String recoveryState) {
        Map<String, Object> p = new HashMap<>(client);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        this.consumer = new KafkaConsumer<>(p);
        this.topics = topics;
        this.kind = kind;
        this.classifications = classifications;
        this.unclassified = unclassified;
        this.recoveryState = recoveryState;
    }

    void start() {
        List<TopicPartition> tps = new ArrayList<>();
        for (String t : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(t);
            if (infos != null) {
                infos.forEach(i -> tps.add(new TopicPartition(t, i.partition())));
            }
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        poller = PollThread.start("bench-observer", consumer, Duration.ofMillis(20), this::handle);
    }

    void expect(String turn, byte[] terminalValue, int sentinelPartition) {
        expected.put(turn, new Expected(System.nanoTime(), Arrays.hashCode(terminalValue), sentinelPartition));
    }

    private void handle(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            long now = System.nanoTime();
            if (kind == Scenario.Kind.PASS_THROUGH) {
                String turn = new String(r.key(), StandardCharsets.UTF_8);
                Expected e = expected.get(turn);
                if (e != null && e.hash() == Arrays.hashCode(r.value()) && seenClassified.add(turn)) {
                    hit(e, now, classification);
                }
            } else if (r.topic().equals(classifications) || r.topic().equals(unclassified)) {
                GenericRecord g = r.topic().equals(classifications)
                        ? classificationSerde.deserialize(r.topic(), r.value())
                        : unclassifiedSerde.deserialize(r.topic(), r.value());
                String turn = g.get("session_id") + "/" + g.get("prompt_generation");
                Expected e = expected.get(turn);
                if (e != null && seenClassified.add(turn)) {
                    hit(e, now, classification);
                }
            } else if (r.topic().equals(recoveryState) && r.value() != null) {
                RecoveryState s = recoverySerde.deserialize(r.topic(), r.value());
                String turn = s.getSessionId() + "/" + s.getGeneration();
                Expected e = expected.get(turn);
                if (e != null && "scheduled".equals(s.getStatus()) && e.sentinelPartition() < 0 && seenScheduled.add(turn)) {
                    synchronized (scheduled) {
                        scheduled.add((now - e.sentNanos()) / 1e6);
                    }
                }
            }
        }
    }

    private void hit(Expected e, long now, List<Double> into) {
        if (e.sentinelPartition() >= 0) {
            if (sentinels.add(e.sentinelPartition())) {
                endNanos = now;
            }
        } else {
            synchronized (into) {
                into.add((now - e.sentNanos()) / 1e6);
            }
        }
    }

    boolean awaitSentinels(int partitions, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (sentinels.size() < partitions && System.nanoTime() < deadline) {
            Thread.sleep(5); // the observer thread records the instant itself
        }
        return sentinels.size() >= partitions;
    }

    void resetSentinels() {
        sentinels.clear();
    }

    void markEnd() {
        endNanos = System.nanoTime();
    }

    long endNanos() {
        return endNanos;
    }

    Latencies classificationLatencies() {
        synchronized (classification) {
            return new Latencies(classification.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    Latencies scheduledLatencies() {
        synchronized (scheduled) {
            return new Latencies(scheduled.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
        }
        consumer.close();
    }
}

