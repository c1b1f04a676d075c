package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.RecoveryState;
import io.recourse.config.RecourseConfig;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python dispatcher example ({@code examples/python/kanban_dispatcher.py}, README
 * "Dispatching") against Recourse on its embedded broker: a user turn fails with a retryable code,
 * Recourse writes a RetryCommand, the script (a subprocess, confluent-kafka + fastavro) decodes
 * it, acks and publishes the retried turn's frames, and the chain ends {@code disarmed}. A slow
 * dispatcher that reaches the command after its {@code expires_at} drops it: no prompt frame and
 * no ack for it ever appear, and Recourse shows {@code manual} / {@code dispatch_unconfirmed}.
 * The same slow dispatcher told to ignore {@code expires_at} sends the prompt after Recourse gave
 * up ({@code dispatched_late}): what the deadline prevents.
 *
 * The three dispatchers run at once, each for its own session.
 *
 * <p>Needs a Python 3 with {@code confluent_kafka} and {@code fastavro} ({@code .ci/run} installs
 * them); without them every test fails, naming what to install.
 */
public class PythonDispatcherIT {

    private static final Path SCRIPT = Path.of("examples/python/kanban_dispatcher.py");
    private static final Path USER_TURN = Path.of("examples/frames/claude-529.jsonl");
    private static final long DISPATCH_TIMEOUT_MS = 4_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path stateDir;
    private static String python;
    private static RecourseRunner runner;
    private static Topics topics;
    private static final String OK = "py-ok-" + UUID.randomUUID();
    private static final String SLOW = "py-slow-" + UUID.randomUUID();
    private static final String LATE = "py-late-" + UUID.randomUUID();
    /** The three scenarios' dispatchers, started together (each waits for its own session's command). */
    private static final Map<String, Process> DISPATCHERS = new java.util.HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        python = pythonWithModules();
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.TOPIC_PARTITIONS, "1", RecourseConfig.OWNER_PARTITIONS, "1",
                RecourseConfig.PUNCTUATION_INTERVAL_MS, "100",
                RecourseConfig.DISPATCH_TIMEOUT_MS, String.valueOf(DISPATCH_TIMEOUT_MS)));
        topics = Topics.from(config);
        runner = new RecourseRunner(config).start();
        String slow = String.valueOf(DISPATCH_TIMEOUT_MS + 1_500);
        DISPATCHERS.put(OK, dispatcher(OK));
        DISPATCHERS.put(SLOW, dispatcher(SLOW, "--delay-ms", slow));
        DISPATCHERS.put(LATE, dispatcher(LATE, "--delay-ms", slow, "--ignore-expiry"));
        for (String session : DISPATCHERS.keySet()) {
            userTurnFails(session);
        }
    }

    @AfterAll
    static void stop() {
        DISPATCHERS.values().forEach(Process::destroy);
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void thePythonDispatcherRetriesTheFailedTurnAndTheChainIsDisarmed() throws Exception {
        String session = OK;
        List<JsonNode> lines = finish(DISPATCHERS.get(session));
        JsonNode handled = only(lines);
        assertThat(handled.get("decision").asText()).as("%s", lines).isEqualTo("dispatched");
        assertThat(handled.get("expires_at").asLong()).as("expires_at decoded from the Avro command").isPositive();

        List<RecoveryState> states = statesUntil(session, s -> s.getStatus().equals("disarmed"));
        assertThat(states).extracting(RecoveryState::getStatus)
                .containsSubsequence("scheduled", "dispatching", "awaiting_outcome", "disarmed")
                .doesNotContain("manual");
        assertThat(states.get(states.size() - 1).getGeneration()).as("the retried generation completed").isEqualTo(2);
    }

    @Test
    void aSlowDispatcherThatHonoursExpiresAtNeverSendsACommandRecourseGaveUpOn() throws Exception {
        String session = SLOW;
        List<JsonNode> lines = finish(DISPATCHERS.get(session));
        JsonNode handled = only(lines);
        assertThat(handled.get("decision").asText()).as("%s", lines).isEqualTo("dropped_expired");
        String commandId = handled.get("command_id").asText();

        List<RecoveryState> states = statesUntil(session, s -> s.getStatus().equals("manual"));
        RecoveryState last = states.get(states.size() - 1);
        assertThat(last.getReason()).isEqualTo("dispatch_unconfirmed");
        assertThat(last.getUpdatedAt()).as("Recourse gives up at expires_at (its punctuation may be late), never before")
                .isAfterOrEqualTo(Instant.ofEpochMilli(handled.get("expires_at").asLong()));
        assertThat(recordsMentioning(topics.agentFrames().name(), commandId)).as("prompt frames of the dropped command").isEmpty();
        assertThat(recordsMentioning(topics.kanbanDispatchAcks().name(), commandId)).as("acks of the dropped command").isEmpty();
    }

    @Test
    void theSameSlowDispatcherIgnoringExpiresAtSendsAPromptTheUserAlreadyOwns() throws Exception {
        String session = LATE;
        JsonNode handled = only(finish(DISPATCHERS.get(session)));
        assertThat(handled.get("decision").asText()).isEqualTo("dispatched");

        List<RecoveryState> states = statesUntil(session,
                s -> s.getStatus().equals("manual") && "dispatch_unconfirmed".equals(s.getReason()));
        Instant gaveUp = states.get(states.size() - 1).getUpdatedAt();
        assertThat(Instant.ofEpochMilli(handled.get("sent_at").asLong())).as("the prompt went out after Recourse gave up")
                .isAfter(gaveUp);
        assertThat(recordsMentioning(topics.agentFrames().name(), handled.get("command_id").asText()))
                .as("the duplicate prompt a deadline-less dispatcher sends").isNotEmpty();
    }

    // ------------------------------------------------------------------ helpers

    /** The first of /usr/bin/python3, python3 that imports both modules; fails naming what to install. */
    private static String pythonWithModules() throws InterruptedException {
        List<String> tried = new ArrayList<>();
        for (String candidate : List.of("/usr/bin/python3", "python3")) {
            try {
                Process p = new ProcessBuilder(candidate, "-c", "import confluent_kafka, fastavro")
                        .redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return candidate;
                }
                tried.add(candidate + ": " + out.lines().reduce((a, b) -> b).orElse("exit " + p.exitValue()));
            } catch (IOException e) {
                tried.add(candidate + ": " + e.getMessage());
            }
        }
        throw new AssertionError("the Python dispatcher IT needs Python 3 with confluent_kafka and fastavro; "
                + "install them as .ci/run does (apt-get install -y python3-confluent-kafka; "
                + "python3 -m pip install --break-system-packages fastavro). Tried: " + String.join("; ", tried));
    }

    private static Process dispatcher(String session, String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(python, SCRIPT.toString(), "--bootstrap", runner.bootstrapServers(),
                "--sessions", session, "--max-commands", "1", "--timeout-s", "60"));
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ in the work tree
        return pb.start();
    }

    /** Waits for the dispatcher to exit 0; its stdout as JSON lines, without the "started" line. */
    private static List<JsonNode> finish(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.print("python dispatcher stdout:\n" + out);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("dispatcher exited: %s", out).isTrue();
        assertThat(p.exitValue()).as("dispatcher exit code; stdout: %s", out).isZero();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                if (!n.get("decision").asText().equals("started")) {
                    lines.add(n);
                }
            }
        }
        return lines;
    }

    private static JsonNode only(List<JsonNode> lines) {
        assertThat(lines).as("one handled command").hasSize(1);
        return lines.get(0);
    }

    /** The failing user turn of examples/frames/claude-529.jsonl on {@code session}, stamped now. */
    private static void userTurnFails(String session) throws IOException {
        Instant at = Instant.now();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, runner.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            List<String> lines = Files.readAllLines(USER_TURN, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                ObjectNode frame = (ObjectNode) JSON.readTree(lines.get(i));
                frame.put("session_id", session);
                frame.put("occurred_at", at.plusMillis(i).toString());
                producer.send(new ProducerRecord<>(topics.agentFrames().name(),
                        session + "/" + frame.get("prompt_generation").asInt(), JSON.writeValueAsString(frame)));
            }
        }
    }

    /** The session's RecoveryStates, read from the beginning until {@code last} holds for one (60 s at most). */
    private static List<RecoveryState> statesUntil(String session, Predicate<RecoveryState> last) {
        AvroSerde<RecoveryState> serde = AvroSerde.of(RecoveryState.class);
        List<RecoveryState> states = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(topics.kanbanRecoveryState().name())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    RecoveryState s = r.value() == null ? null : serde.deserialize(r.topic(), r.value());
                    if (s != null && s.getSessionId().equals(session)) {
                        states.add(s);
                        if (last.test(s)) {
                            return states;
                        }
                    }
                }
            }
        }
        throw new AssertionError("session " + session + " never reached the expected state; states: " + states);
    }

    /** Every record value of {@code topic} (read_committed, to its end now) that contains {@code text}. */
    private static List<String> recordsMentioning(String topic, String text) {
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(topic)) {
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline && end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String v = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
                    if (v.contains(text)) {
                        out.add(v);
                    }
                }
            }
        }
        return out;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String topic) {
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, runner.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        c.assign(parts);
        c.seekToBeginning(parts);
        return c;
    }
}
