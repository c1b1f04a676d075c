package io.recourse.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every Recourse topic from its beginning while the scenario runs ({@code read_committed},
 * its own thread), so the audit also sees the records of the repartition topics, which Kafka
 * Streams deletes once committed. {@link #drain()} stops the thread, reads on to the end offsets
 * and returns every record per topic in partition-offset order.
 */
final class TopicTap implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Map<String, List<ConsumerRecord<byte[], byte[]>>> records = new TreeMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile RuntimeException failure;

    TopicTap(String bootstrap, List<String> topics) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024,
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 16 * 1024 * 1024), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        for (String t : topics) {
            consumer.partitionsFor(t).forEach(p -> partitions.add(new TopicPartition(t, p.partition())));
            records.put(t, new ArrayList<>());
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::loop, "reliability-topic-tap");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (running.get()) {
                poll();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void poll() {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            records.get(r.topic()).add(r);
        }
    }

    /** Stops tapping, reads to the current end of every partition (3 min at most), returns the records. */
    Map<String, List<ConsumerRecord<byte[], byte[]>>> drain() throws InterruptedException {
        running.set(false);
        thread.join(30_000);
        if (failure != null) {
            throw new IllegalStateException("the topic tap failed", failure);
        }
        Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!end.isEmpty()) {
            poll();
            end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read to the end of " + end.keySet());
            }
        }
        return records;
    }

    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
    }
}
