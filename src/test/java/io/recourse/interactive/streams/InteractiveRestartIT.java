package io.recourse.interactive.streams;

import static io.recourse.runtime.RestartSupport.await;
import static io.recourse.evidence.streams.SessionEvents.failed;
import static io.recourse.evidence.streams.SessionEvents.started;
import static io.recourse.evidence.streams.SessionEvents.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.runtime.RestartSupport.CommittedReader;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.runtime.EmbeddedTestBroker;
import io.recourse.runtime.RecourseRunner;
import io.recourse.taxonomy.Code;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive owner across restarts on a real broker with {@code exactly_once_v2}
 * (DESIGN §6.3 durability, §8 timers): Streams is stopped while retries are {@code scheduled} and
 * while one is {@code dispatching}, then started again on the same state directory and later on a
 * fresh one (restoring from the changelogs). Every scheduled retry is commanded exactly once, not
 * before {@code retry_at} and within one punctuation interval (+ 5 s of slack) of
 * {@code max(retry_at, task RUNNING)}; an unconfirmed {@code dispatching} retry becomes
 * {@code manual} ({@code dispatch_unconfirmed}); a {@code read_committed} consumer never sees a
 * command id twice.
 */
public class InteractiveRestartIT {

    private static final Duration PUNCTUATION = Duration.ofSeconds(1);
    private static final Duration SLACK = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(40);
    /** Attempt 1 after 12 s ± 20 %: long enough to stop Streams while the retries are scheduled. */
    private static final InteractiveConfig POLICY_CONFIG = new InteractiveConfig(
            List.of(Duration.ofSeconds(12), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(40),
                    Duration.ofSeconds(60)),
            0.20, Duration.ofSeconds(60), Duration.ofMinutes(5), Duration.ofSeconds(8), Duration.ofDays(7));

    private static EmbeddedTestBroker broker;

    @TempDir
    public Path firstStateDir;
    @TempDir
    public Path freshStateDir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    public static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    public static void stopBroker() {
        broker.close();
    }

    @AfterEach
    public void closeClients() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    public void scheduled_retries_fire_exactly_once_and_unconfirmed_dispatches_become_manual_across_restarts() throws Exception {
        String app = "recourse-interactive-it-" + UUID.randomUUID();
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.OWNER_PARTITIONS, "2",
                RecourseConfig.APPLICATION_ID, app,
                RecourseConfig.STATE_DIR, firstStateDir.toString(),
                RecourseConfig.PUNCTUATION_INTERVAL_MS, String.valueOf(PUNCTUATION.toMillis()),
                RecourseConfig.DISPATCH_TIMEOUT_MS, "8000",
                // a stopped instance does not leave the group (external cluster): let the next one take over soon
                "session.timeout.ms", "6000",
                "heartbeat.interval.ms", "1000"));
        Topics topics = Topics.from(config);
        InteractiveRecoveryPolicy policy = new InteractiveRecoveryPolicy(POLICY_CONFIG, JitterSource.hashed());
        Function<RecourseConfig, org.apache.kafka.streams.Topology> topology = c -> InteractiveTestTopology.build(c, policy);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(InteractiveTestTopology.SESSION_EVENTS, 2, (short) 1))).all().get();
        }
        KafkaProducer<String, byte[]> producer = track(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer()));
        // given: run 1 — A-sessions scheduled (~12 s), B-sessions scheduled by a 40 s rate-limit hint,
        // D1 dispatching (retry_now, no ack will ever come)
        RecourseRunner run1 = track(new RecourseRunner(config, topology)).start();
        CommittedReader<io.recourse.avro.RetryCommand> commands = track(new CommittedReader<>(broker.bootstrapServers(), 
                topics.kanbanRetryCommands().name(), AvroSerde.of(io.recourse.avro.RetryCommand.class)));
        CommittedReader<io.recourse.avro.RecoveryState> states = track(new CommittedReader<>(broker.bootstrapServers(), 
                topics.kanbanRecoveryState().name(), AvroSerde.of(io.recourse.avro.RecoveryState.class)));
        Instant t0 = Instant.now();
        for (String s : List.of("A1", "A2")) {
            userTurnFails(producer, s, SessionEvents.classification(Code.PROVIDER_OVERLOADED, null), t0);
        }
        for (String s : List.of("B1", "B2")) {
            userTurnFails(producer, s, SessionEvents.classification(Code.RATE_LIMITED, t0.plusSeconds(40)), t0);
        }
        userTurnFails(producer, "D1", SessionEvents.classification(Code.PROVIDER_OVERLOADED, null), t0);
        awaitStatus(states, "D1", RecoveryStatus.SCHEDULED);
        control(producer, "D1", "retry_now");
        awaitStatus(states, "D1", RecoveryStatus.DISPATCHING);
        for (String s : List.of("A1", "A2", "B1", "B2")) {
            awaitStatus(states, s, RecoveryStatus.SCHEDULED);
        }
        Map<String, Instant> retryAt = new HashMap<>();
        for (String s : List.of("A1", "A2", "B1", "B2")) {
            retryAt.put(s, latest(states, s).retryAt());
        }

        // when: stopped while scheduled / dispatching, and started again on the same state dir
        run1.close();
        await().atMost(WAIT).until(() -> !retryCommands(commands).isEmpty());
        assertThat(retryCommands(commands)).as("only D1 was commanded in run 1").extracting(RetryCommand::sessionId)
                .containsExactly("D1");
        RecourseRunner run2 = track(new RecourseRunner(config, topology)).start();
        Instant run2Running = Instant.now();

        // then: the A retries fire once, and D1 becomes manual (dispatch_unconfirmed)
        await().atMost(WAIT).untilAsserted(() -> assertThat(retryCommands(commands)).extracting(RetryCommand::sessionId)
                .contains("A1", "A2"));
        awaitStatus(states, "D1", RecoveryStatus.MANUAL);
        assertThat(latest(states, "D1").reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);

        // given: D2 dispatching in run 2 while the B retries are still scheduled
        userTurnFails(producer, "D2", SessionEvents.classification(Code.PROVIDER_OVERLOADED, null), Instant.now());
        awaitStatus(states, "D2", RecoveryStatus.SCHEDULED);
        control(producer, "D2", "retry_now");
        awaitStatus(states, "D2", RecoveryStatus.DISPATCHING);
        assertThat(latest(states, "B1").status()).isEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(latest(states, "B2").status()).isEqualTo(RecoveryStatus.SCHEDULED);

        // when: stopped again and started on a fresh state dir (everything restored from the changelogs)
        run2.close();
        RecourseRunner run3 = track(new RecourseRunner(config.with(RecourseConfig.STATE_DIR, freshStateDir.toString()),
                topology)).start();
        Instant run3Running = Instant.now();
        try {
            await().atMost(WAIT).untilAsserted(() -> assertThat(retryCommands(commands)).extracting(RetryCommand::sessionId)
                    .contains("B1", "B2"));
            awaitStatus(states, "D2", RecoveryStatus.MANUAL);
            assertThat(latest(states, "D2").reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);
        } finally {
            run3.close();
        }

        // then: one command per session, each command id once, each within the bound of its run
        List<RetryCommand> all = retryCommands(commands);
        assertThat(all).extracting(RetryCommand::sessionId).containsExactlyInAnyOrder("A1", "A2", "B1", "B2", "D1", "D2");
        assertThat(all).extracting(RetryCommand::commandId).doesNotHaveDuplicates();
        Map<String, Instant> running = Map.of("A1", run2Running, "A2", run2Running, "B1", run3Running, "B2", run3Running);
        for (RetryCommand c : all) {
            if (!retryAt.containsKey(c.sessionId())) {
                continue; // D1/D2 fired by retry_now
            }
            assertThat(c.retryAt()).isEqualTo(retryAt.get(c.sessionId()));
            assertThat(c.issuedAt()).as("%s not before retry_at", c.sessionId()).isAfterOrEqualTo(c.retryAt());
            Instant from = max(c.retryAt(), running.get(c.sessionId()));
            assertThat(Duration.between(from, c.issuedAt())).as("%s lag behind max(retry_at, RUNNING)", c.sessionId())
                    .isLessThanOrEqualTo(PUNCTUATION.plus(SLACK));
        }
    }

    // ------------------------------------------------------------------ helpers

    private void userTurnFails(KafkaProducer<String, byte[]> producer, String session,
                               io.recourse.taxonomy.Classification c, Instant at) throws Exception {
        TurnContext ctx = user(session, 1);
        send(producer, started(ctx, at));
        send(producer, failed(ctx, c, true, at));
    }

    private void send(KafkaProducer<String, byte[]> producer, SessionEvent e) throws Exception {
        producer.send(new ProducerRecord<>(InteractiveTestTopology.SESSION_EVENTS, e.sessionId(),
                AvroSerde.of(io.recourse.avro.SessionEvent.class).encode(AvroMapping.toAvro(e)))).get();
    }

    private void control(KafkaProducer<String, byte[]> producer, String session, String action) throws Exception {
        String json = "{\"action\":\"" + action + "\",\"session_id\":\"" + session + "\",\"occurred_at\":\"" + Instant.now() + "\"}";
        producer.send(new ProducerRecord<>("recourse.session-controls", session, json.getBytes(StandardCharsets.UTF_8))).get();
    }

    private static void awaitStatus(CommittedReader<io.recourse.avro.RecoveryState> states, String session, RecoveryStatus status) {
        await().atMost(WAIT).untilAsserted(() -> {
            states.poll();
            assertThat(latest(states, session)).as("recovery state of %s", session).isNotNull()
                    .extracting(RecoveryState::status).isEqualTo(status);
        });
    }

    private static RecoveryState latest(CommittedReader<io.recourse.avro.RecoveryState> states, String session) {
        io.recourse.avro.RecoveryState last = null;
        for (ConsumerRecord<String, io.recourse.avro.RecoveryState> r : states.records()) {
            if (session.equals(r.key())) {
                last = r.value();
            }
        }
        return last == null ? null : InteractiveAvro.fromAvro(last);
    }

    /** Polls the retry commands once for up to 200 ms; returns every command read so far. */
    private static List<RetryCommand> retryCommands(CommittedReader<io.recourse.avro.RetryCommand> commands) {
        return commands.poll(Duration.ofMillis(200)).stream().filter(r -> r.value() != null)
                .map(r -> InteractiveAvro.fromAvro(r.value())).toList();
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private <T extends AutoCloseable> T track(T closeable) {
        open.add(closeable);
        return closeable;
    }
}
