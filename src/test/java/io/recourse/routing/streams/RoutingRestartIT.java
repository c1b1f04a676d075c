package io.recourse.routing.streams;

import static io.recourse.runtime.RestartSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.runtime.RestartSupport.CommittedReader;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.Candidate;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.JitterSource;
import io.recourse.routing.Policies;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RunRequest;
import io.recourse.runtime.EmbeddedTestBroker;
import io.recourse.runtime.RecourseRunner;
import io.recourse.taxonomy.Code;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routing owner across restarts on a real broker with {@code exactly_once_v2} (DESIGN §7.3
 * parking, §8 timers): Streams is stopped while runs are parked and while a short retry is pending,
 * started again on the same state directory, then stopped again (another retry pending) and started
 * on a fresh one (restoring from the changelogs). Every parked run wakes exactly once, not before
 * {@code wake_at} and within one punctuation interval (+ 5 s) of {@code max(wake_at, RUNNING)};
 * every pending retry is commanded once, likewise; a {@code read_committed} consumer never sees a
 * RouteCommand id twice; an invalid route-config record lands in the DLQ and the previous document
 * keeps routing.
 */
public class RoutingRestartIT {

    private static final Duration PUNCTUATION = Duration.ofSeconds(1);
    private static final Duration SLACK = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final String WS = "ws-it";
    /** Two candidates, transient retries from 4 s (±20 %). */
    private static final RouteConfig RETRYING = new RouteConfig("dyn-retry", 1, true, List.of(
            new Candidate("codex-gpt5", "openai", "gpt-5",
                    new Policies(ClassPolicy.DEFAULT_TRANSIENT.withRetry(RetryPolicy.of(2, 4)), ClassPolicy.DEFAULT_HARD)),
            Candidate.of("claude-sonnet", "anthropic", "claude-sonnet-4")));
    /** One candidate: a quota failure parks the run until the reset. */
    private static final RouteConfig SINGLE = new RouteConfig("dyn-single", 1, false, List.of(
            Candidate.of("gemini-pro", "google", "gemini-2.5-pro")));

    private static EmbeddedTestBroker broker;

    @TempDir
    public Path firstStateDir;
    @TempDir
    public Path freshStateDir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private KafkaProducer<String, byte[]> producer;
    private Topics topics;

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
    public void parkedRunsWakeOnceAndPendingRetriesFireOnceAcrossRestartsOnTheSameAndAFreshStateDir() throws Exception {
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.OWNER_PARTITIONS, "2",
                RecourseConfig.APPLICATION_ID, "recourse-routing-it-" + UUID.randomUUID(),
                RecourseConfig.STATE_DIR, firstStateDir.toString(),
                RecourseConfig.PUNCTUATION_INTERVAL_MS, String.valueOf(PUNCTUATION.toMillis()),
                "session.timeout.ms", "6000",
                "heartbeat.interval.ms", "1000"));
        topics = Topics.from(config);
        RoutingTopology.Options options = new RoutingTopology.Options(RoutingTopology.settings(config),
                JitterSource.hashing(), UnaryOperator.identity());
        Function<RecourseConfig, org.apache.kafka.streams.Topology> topology = c -> RoutingTestTopology.build(c, options);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(RoutingTestTopology.SESSION_EVENTS, 2, (short) 1))).all().get();
        }
        producer = track(new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer()));

        // given: run 1 — two runs parked until a quota reset 50 s away, one short retry pending
        RecourseRunner run1 = track(new RecourseRunner(config, topology)).start();
        CommittedReader<RouteCommand> commands = track(new CommittedReader<>(broker.bootstrapServers(), topics.officeRouteCommands().name(),
                topics.officeRouteCommands().valueSerde().deserializer()));
        CommittedReader<RunState> states = track(new CommittedReader<>(broker.bootstrapServers(), topics.officeRunState().name(),
                topics.officeRunState().valueSerde().deserializer()));
        CommittedReader<byte[]> dlq = track(new CommittedReader<>(broker.bootstrapServers(), topics.dlq().name(), new ByteArrayDeserializer()));
        routeConfig(RETRYING.dynamicProfileId(), RouteConfigJson.write(RETRYING));
        routeConfig(SINGLE.dynamicProfileId(), RouteConfigJson.write(SINGLE));
        var configs = run1.streams().store(org.apache.kafka.streams.StoreQueryParameters.fromNameAndType(
                RoutingTopology.ROUTE_CONFIG_STORE,
                org.apache.kafka.streams.state.QueryableStoreTypes.<String, io.recourse.avro.RouteConfigValue>keyValueStore()));
        await().atMost(WAIT).until(() -> configs.get(RETRYING.dynamicProfileId()) != null
                && configs.get(SINGLE.dynamicProfileId()) != null);
        Instant reset = Instant.now().plusSeconds(50);
        request("P1", SINGLE.dynamicProfileId());
        dispatchAndFail(awaitCommand(commands, "P1", 1), Code.QUOTA_LIMITED, reset);
        awaitStatus(states, "P1", "waiting_for_provider_capacity");
        request("P2", SINGLE.dynamicProfileId()); // its only route waits for the reset: parked at once
        awaitStatus(states, "P2", "waiting_for_provider_capacity");
        // an invalid update of the retrying profile is dead-lettered; the previous document keeps routing
        routeConfig(RETRYING.dynamicProfileId(), RouteConfigJson.write(RETRYING).replace("\"max_retries\":2", "\"max_retries\":11"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(dlq.poll()).anySatisfy(r -> assertThat(
                DeadLetters.header(r.headers(), DeadLetters.ERROR_CODE)).isEqualTo(RoutingTopology.INVALID_ROUTE_CONFIG)));
        request("S1", RETRYING.dynamicProfileId());
        RouteCommand s1Launch = awaitCommand(commands, "S1", 1);
        assertThat(s1Launch.getExecutionProfileId()).as("the previous document keeps routing").isEqualTo("codex-gpt5");
        dispatchAndFail(s1Launch, Code.PROVIDER_OVERLOADED, null);
        RunState s1Retry = awaitStatus(states, "S1", "short_retry");

        // when: stopped while parked and retrying, started again on the same state dir
        run1.close();
        RecourseRunner run2 = track(new RecourseRunner(config, topology)).start();
        Instant run2Running = Instant.now();

        // then: the pending retry fires once, in time
        RouteCommand s1Command = awaitCommand(commands, "S1", 2, s1Retry.getRetryAt());
        assertIssuedInTime(s1Command, s1Retry.getRetryAt(), run2Running);
        dispatchAndComplete(s1Command); // the retried turn works: the cooldown on openai ends
        awaitStatus(states, "S1", "running");

        // given: another short retry pending in run 2, the runs still parked
        request("S2", RETRYING.dynamicProfileId());
        dispatchAndFail(awaitCommand(commands, "S2", 1), Code.PROVIDER_OVERLOADED, null);
        RunState s2Retry = awaitStatus(states, "S2", "short_retry");
        assertThat(latest(states, "P1").getStatus()).isEqualTo("waiting_for_provider_capacity");

        // when: stopped again and started on a fresh state dir (everything restored from the changelogs)
        run2.close();
        RecourseRunner run3 = track(new RecourseRunner(config.with(RecourseConfig.STATE_DIR, freshStateDir.toString()),
                topology)).start();
        Instant run3Running = Instant.now();
        assertThat(run3Running).as("the parked runs wake after the second restart").isBefore(reset);

        // then: the retry fires once, each parked run wakes once, no command id twice
        assertIssuedInTime(awaitCommand(commands, "S2", 2, s2Retry.getRetryAt()), s2Retry.getRetryAt(), run3Running);
        for (String wakeCommand : List.of("P1#2", "P2#1")) {
            RouteCommand wake = awaitCommand(commands, wakeCommand.substring(0, 2), Integer.parseInt(wakeCommand.substring(3)),
                    reset);
            assertIssuedInTime(wake, reset, run3Running);
        }
        run3.close();
        List<RouteCommand> all = commands.poll().stream().map(ConsumerRecord::value).toList();
        assertThat(all).extracting(RouteCommand::getCommandId).doesNotHaveDuplicates();
        assertThat(all).filteredOn(c -> c.getRunId().startsWith("P")).extracting(RouteCommand::getCommandId)
                .as("each parked run woke exactly once").containsExactlyInAnyOrder("P1#1", "P1#2", "P2#1");
        assertThat(all).filteredOn(c -> c.getRunId().startsWith("S") && !c.getAction().equals("decline"))
                .extracting(RouteCommand::getCommandId).containsExactlyInAnyOrder("S1#1", "S1#2", "S2#1", "S2#2");
        assertThat(all).filteredOn(c -> c.getAction().equals("decline")).as("only never-acked commands are declined")
                .allSatisfy(c -> assertThat(c.getReason()).isEqualTo("dispatch_unconfirmed"));
    }

    // ------------------------------------------------------------------ helpers

    private static void assertIssuedInTime(RouteCommand c, Instant due, Instant running) {
        assertThat(c.getIssuedAt()).as("%s not before its due instant", c.getCommandId()).isAfterOrEqualTo(due);
        Instant from = due.isAfter(running) ? due : running;
        assertThat(Duration.between(from, c.getIssuedAt())).as("%s lag behind max(due, RUNNING)", c.getCommandId())
                .isLessThanOrEqualTo(PUNCTUATION.plus(SLACK));
    }

    /** The dispatcher: ack {@code dispatched}, TurnStarted, then a failed TurnOutcome of {@code code}. */
    private void dispatchAndFail(RouteCommand c, Code code, Instant resetAt) throws Exception {
        Instant now = Instant.now();
        TurnContext t = RoutingEvents.turn(c, 1);
        ack(c, t, now);
        event(RoutingEvents.started(t, now));
        event(RoutingEvents.failed(t, code, resetAt, now));
    }

    /** The dispatcher: ack {@code dispatched}, TurnStarted, then the turn completes. */
    private void dispatchAndComplete(RouteCommand c) throws Exception {
        Instant now = Instant.now();
        TurnContext t = RoutingEvents.turn(c, c.getExpectedGeneration() == null ? 1 : c.getExpectedGeneration() + 1);
        ack(c, t, now);
        event(RoutingEvents.started(t, now));
        event(RoutingEvents.completed(t, now));
    }

    private void ack(RouteCommand c, TurnContext t, Instant now) throws Exception {
        String ack = "{\"command_id\":\"" + c.getCommandId() + "\",\"status\":\"dispatched\",\"run_id\":\"" + c.getRunId()
                + "\",\"workspace_id\":\"" + WS + "\",\"session_id\":\"" + t.sessionId()
                + "\",\"prompt_generation\":" + t.promptGeneration() + ",\"occurred_at\":\"" + now + "\"}";
        producer.send(new ProducerRecord<>(topics.officeDispatchAcks().name(), WS, ack.getBytes(StandardCharsets.UTF_8))).get();
    }

    private void event(SessionEvent e) throws Exception {
        producer.send(new ProducerRecord<>(RoutingTestTopology.SESSION_EVENTS, WS,
                AvroSerde.of(io.recourse.avro.SessionEvent.class).encode(AvroMapping.toAvro(e)))).get();
    }

    private void request(String run, String profile) throws Exception {
        producer.send(new ProducerRecord<>(topics.officeRunRequests().name(), WS,
                RoutingJsonFixtures.json(new RunRequest("q-" + run, run, WS, profile, "task-" + run, Instant.now())))).get();
    }

    private void routeConfig(String profile, String json) throws Exception {
        producer.send(new ProducerRecord<>(topics.routeConfig().name(), profile, json.getBytes(StandardCharsets.UTF_8))).get();
    }

    private static RouteCommand awaitCommand(CommittedReader<RouteCommand> commands, String run, int attempt) {
        return awaitCommand(commands, run, attempt, Instant.now());
    }

    /**
     * The command {@code run#attempt}, awaited up to {@link #WAIT} after {@code due} (or after now,
     * when later): a timed command cannot appear before its due instant, so its wait starts there,
     * not when the test starts waiting; how late it may be is {@link #assertIssuedInTime}'s to say.
     */
    private static RouteCommand awaitCommand(CommittedReader<RouteCommand> commands, String run, int attempt, Instant due) {
        String id = run + "#" + attempt;
        Instant now = Instant.now();
        Duration wait = due.isAfter(now) ? Duration.between(now, due).plus(WAIT) : WAIT;
        await().atMost(wait).untilAsserted(() -> assertThat(commands.poll()).extracting(r -> r.value().getCommandId())
                .contains(id));
        return commands.poll().stream().map(ConsumerRecord::value).filter(c -> c.getCommandId().equals(id)).findFirst()
                .orElseThrow();
    }

    private static RunState awaitStatus(CommittedReader<RunState> states, String run, String status) {
        await().atMost(WAIT).untilAsserted(() -> {
            states.poll();
            assertThat(latest(states, run)).as("run state of %s", run).isNotNull()
                    .extracting(RunState::getStatus).isEqualTo(status);
        });
        return latest(states, run);
    }

    private static RunState latest(CommittedReader<RunState> states, String run) {
        RunState last = null;
        for (ConsumerRecord<String, RunState> r : states.poll()) {
            if (run.equals(r.key())) {
                last = r.value();
            }
        }
        return last;
    }

    private <T extends AutoCloseable> T track(T closeable) {
        open.add(closeable);
        return closeable;
    }
}
