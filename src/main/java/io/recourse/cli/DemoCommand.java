package io.recourse.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.SessionEvent;
import io.recourse.config.RecourseConfig;
import io.recourse.demo.DemoSamples;
import io.recourse.demo.InteractiveDemo;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.http.RecourseHttp;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
import io.recourse.taxonomy.Classification;
import io.recourse.topology.RecourseTopology;
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
import java.util.function.BiFunction;
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
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse demo}: starts the embedded broker and the Recourse topology on the injected clock
 * ({@link ScaledTime}, {@code --time-scale N}: N× faster than the wall clock from the demo's start,
 * DESIGN §8), then
 * <ol>
 *   <li>publishes the bundled sample sequences ({@link DemoSamples}) with {@code occurred_at} shifted
 *       onto that clock, reads the TurnOutcomes from the session-keyed SessionEvent repartition topic
 *       with a {@code read_committed} consumer, and prints one aligned line per turn: session, outcome,
 *       code, class, confidence, rule, replay-safe, and the validated {@code retry_after} /
 *       {@code reset_at};</li>
 *   <li>unless {@code --no-interactive}: plays the interactive scenarios ({@link InteractiveScenarios})
 *       with the built-in {@link ScriptedDispatcher}, restarting the Streams app once during a
 *       countdown, and prints each session's recovery timeline ({@link InteractiveDemo});</li>
 *   <li>the Office routing scenario ({@code RoutingDemo.play}, on its own broker): capacity short
 *       retries, fall-through, quota + auth, park and wake; its route timeline and final provider health.</li>
 * </ol>
 * {@code --only evidence|kanban|office} plays one part. The instance's HTTP server
 * ({@link RecourseHttp}: status page, queries) listens on {@code --http-port} while the demo runs;
 * Kafka's client WARN lines are silenced (ERROR only) and the instance logs at WARN, so the tables
 * print undisturbed.
 * <p>Time-scale model: only the clock is scaled. The policy keeps DESIGN's durations (5/10/20/40/60 s,
 * ±20 %, 30 s dispatch timeout, 5 min staleness bound, 1 s punctuation) measured on the scaled clock,
 * so each passes N× sooner in wall time; hints are event-time instants of the frames, whose
 * {@code occurred_at} the demo stamps from the scaled clock; record timestamps (broker wall time)
 * are mapped through {@link ScaledTime#scaled} before any comparison with the clock.
 * Exit code 0 when every turn got its expected outcome and every scenario its expected timeline,
 * 1 otherwise (the differences are printed).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the sample agent sequences, the interactive (Kanban) recovery scenarios and the Office routing"
                + " scenario through an embedded broker; print each turn's classification, each scenario's timeline and the"
                + " final provider health, with the status page up while it runs.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for the outcomes after publishing (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--time-scale", paramLabel = "N", defaultValue = "10",
            description = "Run the injected clock N times faster than the wall clock from the demo's start; every timer, "
                    + "hint, ladder, timeout and bound scales with it (DESIGN §8; default ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--interactive", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also play the interactive recovery scenarios (default ${DEFAULT-VALUE}; --no-interactive skips them).")
    boolean interactive;

    @Option(names = "--interactive-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "Wall-clock limit for the interactive scenarios to settle (default ${DEFAULT-VALUE}).")
    int interactiveTimeoutSeconds;

    /** The parts of the demo ({@code --only}). */
    enum Part { evidence, kanban, office }

    @Option(names = "--only", paramLabel = "PART",
            description = "Play only one part: evidence (the sample turns), kanban (the interactive scenarios) or office"
                    + " (the routing scenario); default all three.")
    Part only;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "9464",
            description = "Port of the status page and queries while the demo runs (default ${DEFAULT-VALUE}; 0 a free port, -1 none).")
    int httpPort;

    @Option(names = "--office-runs", paramLabel = "COUNT", defaultValue = "5",
            description = "Concurrent runs of the Office routing scenario (default ${DEFAULT-VALUE}).")
    int officeRuns;

    @Option(names = "--office-timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "Wall-clock limit of the Office routing scenario (default ${DEFAULT-VALUE}).")
    int officeTimeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        quietKafkaClients();
        if (httpPort == 0) {
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                httpPort = free.getLocalPort();
            }
        }
        boolean evidencePart = only == null || only == Part.evidence;
        boolean kanbanPart = only == null ? interactive : only == Part.kanban;
        boolean officePart = only == null || only == Part.office;
        int status = 0;
        if (evidencePart || kanbanPart) {
            status = playEvidenceAndKanban(out, evidencePart, kanbanPart);
        }
        if (officePart) {
            out.println();
            out.println("== Office: the routing scenario (capacity short retries, fall-through, quota + auth, park and wake)");
            out.flush();
            status |= io.recourse.demo.RoutingDemo.play(out, Math.min(timeScale, 5), officeRuns, officeTimeoutSeconds, httpPort);
        }
        return status;
    }

    /**
     * Client-library WARN lines (record timestamps ahead of the broker on the scaled clock, topics not yet
     * known during startup) would interleave with the demo's tables: the demo shows Kafka's ERROR lines only.
     */
    private static void quietKafkaClients() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger("org.apache.kafka").setLevel(ch.qos.logback.classic.Level.ERROR);
            context.getLogger("io.recourse").setLevel(ch.qos.logback.classic.Level.WARN); // before the runner applies it
        }
    }

    private int playEvidenceAndKanban(PrintWriter out, boolean evidencePart, boolean kanbanPart) throws Exception {
        if (!(timeScale >= 1) || Double.isInfinite(timeScale)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--time-scale must be a finite number >= 1, got " + timeScale);
        }
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), timeScale);
        Instant now = time.now();
        List<DemoSamples.Sample> samples = DemoSamples.shiftedTo(now);
        Path stateDir = Files.createTempDirectory("recourse-demo");
        RecourseConfig base = RecourseConfig.of(Map.of(
                RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.APPLICATION_ID, "recourse-demo",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.OWNER_PARTITIONS, "2",
                RecourseConfig.TOPICS_CREATE, "true", // the broker is the demo's own, started below
                RecourseConfig.HTTP_PORT, String.valueOf(httpPort),
                RecourseConfig.LOG_LEVEL, "WARN", // the demo's tables, not the instance's log
                // the demo reads the owners' repartition topic: keep its records
                StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, String.valueOf(Long.MAX_VALUE)));
        // each runner's topology records into that runner's registry: the restart's new instance starts its
        // meters from zero, as a restarted process would
        BiFunction<RecourseConfig, RecourseMeters, Topology> topology = (c, meters) -> RecourseTopology.build(c,
                RecourseTopology.Options.with(meters).withRecordClock(time::scaled));
        Map<String, TurnOutcome> outcomes;
        int differingScenarios = 0;
        // Streams stamps its output and changelog records with the scaled clock, up to (N − 1) × the demo's
        // wall-clock run ahead of the broker: accept any future CreateTime, keep every segment
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(base.stateDir().resolve("broker"), base.embeddedPort(),
                base.embeddedControllerPort(), EmbeddedKafkaBroker.scaledClockOverrides()).start()) {
            RecourseConfig config = base.with(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
            RecourseRunner[] runner = {new RecourseRunner(config, topology, time).withEndpoint(RecourseHttp::start).start()};
            try {
                out.printf("embedded broker on %s; time scale %sx%n", broker.bootstrapServers(), number(timeScale));
                if (httpPort > 0) {
                    out.printf("status page: http://127.0.0.1:%d/ (queries: /openapi.json; while the demo runs)%n", httpPort);
                }
                if (evidencePart) {
                    out.println();
                    out.printf("== Evidence: %d sample turns shifted onto %s%n", samples.size(), now);
                    out.flush();
                    publish(broker.bootstrapServers(), config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES), samples);
                    outcomes = readOutcomes(broker.bootstrapServers(),
                            config.applicationId() + "-" + RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition",
                            samples.size());
                    print(out, samples, outcomes);
                } else {
                    outcomes = null;
                }
                if (kanbanPart) {
                    out.println();
                    out.println("== Kanban: the interactive recovery scenarios");
                    out.flush();
                    differingScenarios = InteractiveDemo.run(out, broker.bootstrapServers(), config,
                            InteractiveTopology.interactiveConfig(config), time, () -> {
                                // the demo's broker counts as an external cluster for the runner: leave the group
                                // here, so the new instance need not wait a session timeout for the old member
                                runner[0].streams().close(CloseOptions.timeout(Duration.ofSeconds(30))
                                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                                runner[0].close();
                                runner[0] = new RecourseRunner(config, topology, time).withEndpoint(RecourseHttp::start).start();
                            }, Duration.ofSeconds(interactiveTimeoutSeconds));
                }
            } finally {
                runner[0].close();
            }
        } finally {
            deleteQuietly(stateDir);
        }
        boolean outcomesMatch = outcomes == null
                || samples.stream().allMatch(s -> s.differences(outcomes.get(s.sessionId())).isEmpty());
        return outcomesMatch && differingScenarios == 0 ? 0 : 1;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
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
