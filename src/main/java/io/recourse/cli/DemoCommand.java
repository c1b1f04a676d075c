package io.recourse.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.SessionEvent;
import io.recourse.classification.Classification;
import io.recourse.evidence.TurnOutcome;
import io.recourse.runtime.RecourseConfig;
import io.recourse.runtime.RecourseRunner;
import io.recourse.streams.AvroMapping;
import io.recourse.streams.AvroSerde;
import io.recourse.streams.RecourseTopology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code recourse demo}: starts the embedded broker and the Recourse topology, publishes the
 * bundled sample sequences ({@link DemoSamples}) with {@code occurred_at} shifted onto the current
 * clock (DESIGN §8), reads the TurnOutcomes from the session-keyed SessionEvent repartition topic
 * with a {@code read_committed} consumer, and prints one aligned line per turn: session, outcome,
 * code, class, confidence, rule, replay-safe, and the validated {@code retry_after} /
 * {@code reset_at}. Exit code 0 when every turn got its expected outcome, 1 otherwise (the
 * differing fields are printed).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the sample agent sequences through an embedded broker and print each turn's classification.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for the outcomes after publishing (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Instant now = Instant.now();
        List<DemoSamples.Sample> samples = DemoSamples.shiftedTo(now);
        Path stateDir = Files.createTempDirectory("recourse-demo");
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.APPLICATION_ID, "recourse-demo",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.OWNER_PARTITIONS, "2",
                // the demo reads the owners' repartition topic: keep its records
                StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, String.valueOf(Long.MAX_VALUE)));
        Map<String, TurnOutcome> outcomes;
        try (RecourseRunner runner = new RecourseRunner(config).start()) {
            out.printf("embedded broker on %s; publishing %d sample turns shifted onto %s%n", runner.bootstrapServers(),
                    samples.size(), now);
            out.flush();
            publish(runner.bootstrapServers(), config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES), samples);
            outcomes = readOutcomes(runner.bootstrapServers(),
                    config.applicationId() + "-" + RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition", samples.size());
        } finally {
            deleteQuietly(stateDir);
        }
        return print(out, samples, outcomes);
    }

    private static void publish(String bootstrap, String topic, List<DemoSamples.Sample> samples) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (DemoSamples.Sample s : samples) {
                for (ObjectNode f : s.frames()) {
                    String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                    producer.send(new ProducerRecord<>(topic, bytes(key), bytes(f.toString())));
                }
            }
            producer.flush();
        }
    }

    /** Session → its TurnOutcome (generation ≥ 1), read with read_committed until {@code expected} arrived or the timeout. */
    private Map<String, TurnOutcome> readOutcomes(String bootstrap, String topic, int expected) {
        Map<String, TurnOutcome> outcomes = new LinkedHashMap<>();
        try (KafkaConsumer<String, SessionEvent> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), AvroSerde.of(SessionEvent.class))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
            while (outcomes.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, SessionEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    if (AvroMapping.fromAvro(r.value()) instanceof TurnOutcome o && o.promptGeneration() >= 1) {
                        outcomes.put(o.sessionId(), o);
                    }
                }
            }
        }
        return outcomes;
    }

    private static int print(PrintWriter out, List<DemoSamples.Sample> samples, Map<String, TurnOutcome> outcomes) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SESSION", "OUTCOME", "CODE", "CLASS", "CONFIDENCE", "RULE", "REPLAY-SAFE", "RETRY_AFTER/RESET_AT", "CHECK"});
        List<String> diffs = new ArrayList<>();
        for (DemoSamples.Sample s : samples) {
            TurnOutcome o = outcomes.get(s.sessionId());
            List<String> differences = s.differences(o);
            Classification c = o == null ? null : o.classification();
            String hint = c == null ? "-" : c.retryAfter() != null ? "retry_after=" + c.retryAfter()
                    : c.resetAt() != null ? "reset_at=" + c.resetAt() : "-";
            rows.add(new String[] {s.sessionId(), o == null ? "?" : o.outcome().wire(), c == null ? "-" : c.code().wire(),
                    c == null ? "-" : c.errorClass().wire(), c == null ? "-" : c.confidence().wire(), c == null ? "-" : c.ruleId(),
                    o == null ? "?" : String.valueOf(o.replaySafe()), hint, differences.isEmpty() ? "ok" : "DIFFERS"});
            if (!differences.isEmpty()) {
                diffs.add(s.sessionId() + " (" + s.name() + "): " + String.join("; ", differences));
            }
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
        if (diffs.isEmpty()) {
            out.printf("all %d turns got their expected outcome%n", samples.size());
        } else {
            out.printf("%d of %d turns differ from the expected outcome:%n", diffs.size(), samples.size());
            diffs.forEach(d -> out.println("  " + d));
        }
        out.flush();
        return diffs.isEmpty() ? 0 : 1;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory; the OS cleans it eventually
        }
    }
}
