package io.recourse.bench;

import io.recourse.config.RecourseConfig;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.streams.RoutingTopology;
import io.recourse.runtime.RecourseRunner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The benchmark's Kafka helpers: producing the workload and sentinels, waiting for commits, measuring changelogs and RocksDB. */
final class BenchSupport {

    private static final Logger LOG = LoggerFactory.getLogger(BenchSupport.class);

    private BenchSupport() {
    }

    static Map<String, Object> producerProps(Map<String, Object> client) {
        Map<String, Object> p = new HashMap<>(client);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
        return p;
    }

    /**
     * Sends {@code workload} (frames to {@code topic}, RunRequests to {@code runRequests} and their run
     * ids into {@code runIds}, or skipped when it is {@code null}), paced to {@code rate} records/s when
     * positive, and flushes. Returns the records sent.
     */
    static long produce(KafkaProducer<byte[], byte[]> producer, String topic, String runRequests, Workload workload,
                        double rate, BenchObserver observer, long t0, Set<String> runIds) {
        long n = 0;
        while (workload.hasNext()) {
            Workload.Record r = workload.next();
            if (r.kind() == Workload.Kind.RUN_REQUEST) {
                if (runRequests != null) {
                    runIds.add(r.sessionId());
                    producer.send(new ProducerRecord<>(runRequests, r.key(), r.value()));
                    n++;
                }
                continue;
            }
            if (rate > 0) {
                long due = t0 + (long) (n * 1e9 / rate);
                for (long now = System.nanoTime(); now < due; now = System.nanoTime()) {
                    LockSupport.parkNanos(due - now);
                }
            }
            if (r.failingTerminal() && observer != null) {
                observer.expect(r.turn(), r.value(), -1);
            }
            producer.send(new ProducerRecord<>(topic, r.key(), r.value()));
            n++;
        }
        producer.flush();
        return n;
    }

    static void sendSentinels(KafkaProducer<byte[], byte[]> producer, String topic, String id, int generation,
                                      int partitions, BenchObserver observer) {
        for (int p = 0; p < partitions; p++) {
            List<Workload.Record> turn = Workload.sentinelTurn(id + "-sentinel-" + p, generation, Instant.now());
            for (Workload.Record r : turn) {
                if (r.terminal()) {
                    observer.expect(r.turn(), r.value(), p);
                }
                producer.send(new ProducerRecord<>(topic, p, r.key(), r.value()));
            }
        }
        producer.flush();
    }

    /**
     * Sends {@code configs} to the run's route-config topic and waits until the routing owner's global
     * store holds every one (run requests on a profile it does not know yet would be declined).
     */
    static void publishRouteConfigs(Map<String, Object> client, RecourseConfig config, RecourseRunner runner,
                                    List<RouteConfig> configs) throws InterruptedException, ExecutionException {
        String topic = config.topicName(RecourseConfig.TOPIC_ROUTE_CONFIG);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProps(client))) {
            for (RouteConfig c : configs) {
                p.send(new ProducerRecord<>(topic, c.dynamicProfileId().getBytes(StandardCharsets.UTF_8),
                        RouteConfigJson.write(c).getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        ReadOnlyKeyValueStore<String, Object> store = runner.streams().store(StoreQueryParameters.fromNameAndType(
                RoutingTopology.ROUTE_CONFIG_STORE, QueryableStoreTypes.keyValueStore()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (configs.stream().anyMatch(c -> store.get(c.dynamicProfileId()) == null)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the route configurations never reached " + RoutingTopology.ROUTE_CONFIG_STORE);
            }
            Thread.sleep(20); // the global thread reads the validated topic
        }
    }

    static void awaitAllRunning(List<RecourseRunner> runners) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int stable = 0;
        while (stable < 5 && System.nanoTime() < deadline) {
            boolean all = runners.stream().allMatch(r -> r.streams().state() == KafkaStreams.State.RUNNING);
            stable = all ? stable + 1 : 0;
            Thread.sleep(200); // settling of the group after the last instance joined, not a test wait
        }
    }

    /**
     * Waits until the application's committed offsets on {@code topic} reach its end offsets. A
     * partition that holds no record (end offset = earliest offset) counts as reached: Kafka Streams
     * commits offsets only for partitions it consumed from, so an empty partition never has one.
     */
    static boolean awaitCommitted(Admin admin, String groupId, String topic, Duration timeout, BenchObserver observer)
            throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().forEach(p -> {
            latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
            earliest.put(new TopicPartition(topic, p.partition()), OffsetSpec.earliest());
        });
        var ends = new HashMap<>(admin.listOffsets(latest).all().get());
        var starts = admin.listOffsets(earliest).all().get();
        ends.entrySet().removeIf(e -> e.getValue().offset() <= starts.get(e.getKey()).offset());
        while (System.nanoTime() < deadline) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get();
            boolean all = ends.entrySet().stream().allMatch(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return c != null && c.offset() >= e.getValue().offset();
            });
            if (all) {
                if (observer != null) {
                    observer.markEnd();
                }
                return true;
            }
            Thread.sleep(20); // polling the group's offsets
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
        LOG.warn("{}: committed offsets on {} did not reach the end offsets within {}: end {}, committed {}", groupId, topic, timeout,
                ends.entrySet().stream().map(e -> e.getKey().partition() + "=" + e.getValue().offset()).toList(),
                committed.entrySet().stream().filter(e -> e.getKey().topic().equals(topic))
                        .map(e -> e.getKey().partition() + "=" + e.getValue().offset()).toList());
        return false;
    }

    /** Live bytes per store: the latest value per key of each {@code <id>-*-changelog} topic (key + value bytes). */
    static Map<String, Long> changelogBytes(Admin admin, Map<String, Object> client, String id)
            throws ExecutionException, InterruptedException {
        List<String> changelogs = admin.listTopics().names().get().stream()
                .filter(t -> t.startsWith(id + "-") && t.endsWith("-changelog")).sorted().toList();
        Map<String, Long> out = new TreeMap<>();
        if (changelogs.isEmpty()) {
            return out;
        }
        Map<String, Object> p = new HashMap<>(client);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            for (String topic : changelogs) {
                List<TopicPartition> tps = c.partitionsFor(topic).stream()
                        .map(i -> new TopicPartition(topic, i.partition())).toList();
                c.assign(tps);
                c.seekToBeginning(tps);
                Map<TopicPartition, Long> end = c.endOffsets(tps);
                HashMap<Long, Integer> live = new HashMap<>();
                long written = 0;
                while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                        written++;
                        long k = hash64(r.key()) * 31 + r.partition();
                        if (r.value() == null) {
                            live.remove(k);
                        } else {
                            live.put(k, r.key().length + r.value().length);
                        }
                    }
                }
                String store = topic.substring(id.length() + 1, topic.length() - "-changelog".length());
                out.put(store, live.values().stream().mapToLong(Integer::longValue).sum());
                LOG.info("{}: changelog {}: {} committed records, {} live keys", id, store, written, live.size());
            }
        }
        return out;
    }

    /**
     * CPU time (ns) of this JVM's live Kafka Streams stream threads (name {@code …-StreamThread-N}),
     * summed: what the topology's processing cost, whatever else shares the cores.
     */
    static long streamThreadCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("-StreamThread-")) {
                long ns = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, ns);
            }
        }
        return sum;
    }

    static long hash64(byte[] b) {
        long h = 0xcbf29ce484222325L;
        for (byte x : b) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** RocksDB's size metrics (SST files + memtables) over every store of every instance. */
    static double rocksDbBytes(List<RecourseRunner> runners) {
        double sum = 0;
        for (RecourseRunner r : runners) {
            for (Map.Entry<MetricName, ? extends Metric> e : r.streams().metrics().entrySet()) {
                MetricName n = e.getKey();
                if (n.group().equals("stream-state-metrics")
                        && (n.name().equals("total-sst-files-size") || n.name().equals("size-all-mem-tables"))
                        && e.getValue().metricValue() instanceof Number v) {
                    sum += v.doubleValue();
                }
            }
        }
        return sum;
    }
}
