package io.recourse.runtime;

import static io.recourse.runtime.RestartSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.runtime.RestartSupport.CommittedReader;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.streams.InteractiveAvro;
import io.recourse.interactive.streams.InteractiveTestTopology;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.Candidate;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.Policies;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RunRequest;
import io.recourse.routing.streams.RoutingEvents;
import io.recourse.routing.streams.RoutingJsonFixtures;
import io.recourse.routing.streams.RoutingTestTopology;
import io.recourse.routing.streams.RoutingTopology;
import io.recourse.taxonomy.Code;
import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Recourse instances of one {@code application.id} on the embedded broker, with static
 * membership ({@code recourse.instance.name}) and {@code exactly_once_v2} (DESIGN §8 timers and
 * failover): both own pending Kanban retries (a rate-limit hint), Office short retries and runs
 * parked until a quota reset. One instance, its own process, fails before any of them is due:
 * once it is stopped the way an operator stops it (SIGTERM: Streams closes without leaving the
 * group, so the survivor takes over after {@code session.timeout.ms}) and once it is killed
 * ({@code kill -9}: its heartbeat stops and its open transaction is aborted by the broker). The
 * survivor then owns every task; each pending retry and wake is commanded exactly once, after the
 * failure, not before its due instant, and within one punctuation interval (+ the interactive
 * start settle, + 5 s) of {@code max(due, takeover)}; the takeover itself comes within the session
 * timeout plus the transaction timeout (+ 10 s); a {@code read_committed} consumer never sees a
 * command id twice.
 */
public class TwoInstanceFailoverIT {

    /** How the failing instance goes. */
    enum Failure {
        /** SIGTERM: {@link RecourseRunner#close()}, which keeps the static member in the group. */
        CLOSED_WITHOUT_LEAVING,
        /** {@code kill -9}: threads halted mid-flight, no close, no commit, no leave. */
        KILLED
    }

    private static final Duration PUNCTUATION = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofMillis(500);
    private static final Duration SLACK = Duration.ofSeconds(5);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REBALANCE_SLACK = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(40);
    /** Retry-after hint of the Kanban failures and quota reset of the parked runs, from the first failure. */
    private static final Duration DUE = Duration.ofSeconds(20);
    private static final int PARTITIONS = 2;
    /** Transient retries from 15 s (±20 %): due after the failure, not before. */
    private static final RouteConfig RETRYING = new RouteConfig("dyn-failover-retry", 1, true, List.of(
            new Candidate("codex-gpt5", "openai", "gpt-5",
                    new Policies(ClassPolicy.DEFAULT_TRANSIENT.withRetry(RetryPolicy.of(2, 15)), ClassPolicy.DEFAULT_HARD)),
            Candidate.of("claude-sonnet", "anthropic", "claude-sonnet-4")));
    /** One candidate: a quota failure parks the run until the reset. */
    private static final RouteConfig SINGLE = new RouteConfig("dyn-failover-single", 1, false, List.of(
            Candidate.of("gemini-pro", "google", "gemini-2.5-pro")));

    @TempDir
    public Path dir;

    private EmbeddedKafkaBroker broker;
    private final List<AutoCloseable> open = new ArrayList<>();
    private KafkaProducer<String, byte[]> producer;
    private Topics topics;
    private Process doomed;
    private Path doomedLog;

    @BeforeEach
    public void startBroker() {
        broker = new EmbeddedKafkaBroker(dir.resolve("broker"), 0, 0, Map.of(
                "group.min.session.timeout.ms", "1000",
                // the broker aborts a dead producer's timed-out transaction within a second, not ten
                "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")).start();
    }

    @AfterEach
    public void stopAll() throws Exception {
        if (doomed != null && doomed.isAlive()) {
            doomed.destroyForcibly().waitFor();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        broker.close();
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    public void everyPendingRetryAndWakeFiresOnceOnTheSurvivor(Failure failure) throws Exception {
        String app = "recourse-failover-it-" + UUID.randomUUID();
        Map<String, String> common = new LinkedHashMap<>();
        common.put(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        common.put(RecourseConfig.APPLICATION_ID, app);
        common.put(RecourseConfig.TOPICS_CREATE, "false"); // created below, before the two instances start
        common.put(RecourseConfig.TOPIC_PARTITIONS, String.valueOf(PARTITIONS));
        common.put(RecourseConfig.OWNER_PARTITIONS, String.valueOf(PARTITIONS));
        common.put(RecourseConfig.PUNCTUATION_INTERVAL_MS, String.valueOf(PUNCTUATION.toMillis()));
        common.put(RecourseConfig.INTERACTIVE_START_SETTLE_MS, String.valueOf(SETTLE.toMillis()));
        // no decline or manual hand-off of the unacknowledged retries while the test reads
        common.put(RecourseConfig.DISPATCH_TIMEOUT_MS, "120000");
        // static members (recourse.instance.name) are replaced after the session timeout only
        common.put("session.timeout.ms", String.valueOf(SESSION_TIMEOUT.toMillis()));
        common.put("heartbeat.interval.ms", "500");
        common.put("producer.transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT.toMillis()));
        common.put(RecourseConfig.METRICS_PORT, "-1");
        RecourseConfig survivorConfig = RecourseConfig.of(with(common, Map.of(
                RecourseConfig.INSTANCE_NAME, "survivor",
                RecourseConfig.STATE_DIR, dir.resolve("survivor-state").toString())));
        int doomedPort = freePort();
        Map<String, String> doomedConfig = with(common, Map.of(
                RecourseConfig.INSTANCE_NAME, "doomed",
                RecourseConfig.STATE_DIR, dir.resolve("doomed-state").toString(),
                RecourseConfig.METRICS_PORT, String.valueOf(doomedPort)));
        topics = Topics.from(survivorConfig);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            TopicProvisioner.createMissing(admin, topics, survivorConfig);
            admin.createTopics(List.of(new NewTopic(InteractiveTestTopology.SESSION_EVENTS, PARTITIONS, (short) 1),
                    new NewTopic(RoutingTestTopology.SESSION_EVENTS, PARTITIONS, (short) 1))).all().get();
        }
        producer = track(new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer()));

        // given: two instances running, each owning one partition of each owner (the process first: its JVM starts slower)
        Instant started = Instant.now();
        startDoomed(doomedConfig, doomedPort);
        RecourseRunner survivor = track(new RecourseRunner(survivorConfig, FailoverInstance::topology)).start();
        String kanbanTopic = app + "-" + InteractiveTopology.SESSION_EVENTS_BY_SESSION + "-repartition";
        String officeTopic = app + "-" + RoutingTopology.RUN_REQUESTS_BY_WORKSPACE + "-repartition";
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(survivor.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(health(doomedPort)).isEqualTo("RUNNING");
            assertThat(owned(survivor, kanbanTopic)).as("Kanban partitions of the survivor").hasSize(1);
            assertThat(owned(survivor, officeTopic)).as("Office partitions of the survivor").hasSize(1);
        });
        log("both instances running and balanced after %s", Duration.between(started, Instant.now()));
        int kanbanSurvivor = owned(survivor, kanbanTopic).iterator().next();
        int officeSurvivor = owned(survivor, officeTopic).iterator().next();
        String kanbanOnSurvivor = keyOn(kanbanSurvivor, "kanban-");
        String kanbanOnDoomed = keyOn(1 - kanbanSurvivor, "kanban-");
        String wsOnSurvivor = keyOn(officeSurvivor, "ws-");
        String wsOnDoomed = keyOn(1 - officeSurvivor, "ws-");

        CommittedReader<io.recourse.avro.RetryCommand> retryCommands = track(new CommittedReader<>(broker.bootstrapServers(), 
                topics.kanbanRetryCommands().name(), AvroSerde.of(io.recourse.avro.RetryCommand.class)));
        CommittedReader<io.recourse.avro.RecoveryState> recoveryStates = track(new CommittedReader<>(broker.bootstrapServers(), 
                topics.kanbanRecoveryState().name(), AvroSerde.of(io.recourse.avro.RecoveryState.class)));
        CommittedReader<RouteCommand> routeCommands = track(new CommittedReader<>(broker.bootstrapServers(), topics.officeRouteCommands().name(),
                topics.officeRouteCommands().valueSerde().deserializer()));
        CommittedReader<RunState> runStates = track(new CommittedReader<>(broker.bootstrapServers(), topics.officeRunState().name(),
                topics.officeRunState().valueSerde().deserializer()));
        routeConfig(RETRYING);
        routeConfig(SINGLE);
        var configs = survivor.streams().store(StoreQueryParameters.fromNameAndType(RoutingTopology.ROUTE_CONFIG_STORE,
                QueryableStoreTypes.<String, io.recourse.avro.RouteConfigValue>keyValueStore()));
        await().atMost(WAIT).until(() -> configs.get(RETRYING.dynamicProfileId()) != null
                && configs.get(SINGLE.dynamicProfileId()) != null);

        // given: on both instances a Kanban retry (rate-limit hint), an Office short retry and a parked run
        Instant t0 = Instant.now();
        Instant due = t0.plus(DUE);
        for (String session : List.of(kanbanOnSurvivor, kanbanOnDoomed)) {
            TurnContext ctx = SessionEvents.user(session, 1);
            kanbanEvent(SessionEvents.started(ctx, t0));
            kanbanEvent(SessionEvents.failed(ctx, SessionEvents.classification(Code.RATE_LIMITED, due), true, t0));
        }
        for (String ws : List.of(wsOnSurvivor, wsOnDoomed)) {
            request(ws, "S-" + ws, RETRYING);
            request(ws, "P-" + ws, SINGLE);
        }
        for (String ws : List.of(wsOnSurvivor, wsOnDoomed)) {
            dispatchAndFail(awaitCommand(routeCommands, "S-" + ws + "#1"), Code.PROVIDER_OVERLOADED, null);
            dispatchAndFail(awaitCommand(routeCommands, "P-" + ws + "#1"), Code.QUOTA_LIMITED, due);
        }
        Map<String, Instant> dueOf = new HashMap<>(); // expected command id -> its due instant
        for (String session : List.of(kanbanOnSurvivor, kanbanOnDoomed)) {
            RecoveryState s = awaitRecovery(recoveryStates, session, RecoveryStatus.SCHEDULED);
            dueOf.put(session, s.retryAt());
        }
        for (String ws : List.of(wsOnSurvivor, wsOnDoomed)) {
            dueOf.put("S-" + ws + "#2", awaitRun(runStates, "S-" + ws, "short_retry").getRetryAt());
            awaitRun(runStates, "P-" + ws, "waiting_for_provider_capacity");
            dueOf.put("P-" + ws + "#2", due);
        }
        assertThat(retryCommands.poll()).as("no Kanban retry before the failure").isEmpty();
        assertThat(routeCommands.poll()).extracting(r -> r.value().getCommandId()).as("no Office retry or wake before the failure")
                .allMatch(id -> id.endsWith("#1"));

        // when: the doomed instance fails before anything is due
        Instant failedAt = Instant.now();
        assertThat(failedAt).as("the instance fails before the first due instant (setup too slow?)")
                .isBefore(dueOf.values().stream().min(Instant::compareTo).orElseThrow());
        if (failure == Failure.KILLED) {
            doomed.destroyForcibly();
        } else {
            doomed.destroy();
        }
        assertThat(doomed.waitFor(60, TimeUnit.SECONDS)).as("the doomed instance exits").isTrue();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(survivor.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(owned(survivor, kanbanTopic)).hasSize(PARTITIONS);
            assertThat(owned(survivor, officeTopic)).hasSize(PARTITIONS);
        });
        Instant takeover = Instant.now();
        log("%s: doomed instance gone; survivor owns every task %s after the failure", failure,
                Duration.between(failedAt, takeover));
        assertThat(Duration.between(failedAt, takeover)).as("takeover after the failure")
                .isLessThanOrEqualTo(SESSION_TIMEOUT.plus(TRANSACTION_TIMEOUT).plus(REBALANCE_SLACK));

        // then: every retry and wake, of both instances, fires once on the survivor
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(retryCommands.poll()).extracting(r -> r.value().getSessionId())
                    .contains(kanbanOnSurvivor, kanbanOnDoomed);
            assertThat(routeCommands.poll()).extracting(r -> r.value().getCommandId())
                    .contains(dueOf.keySet().stream().filter(k -> k.contains("#")).toArray(String[]::new));
        });
        log("every retry and wake commanded %s after the failure", Duration.between(failedAt, Instant.now()));
        // a duplicate from a replayed transaction or a second timer would come within a few intervals
        Thread.sleep(PUNCTUATION.multipliedBy(3).toMillis());
        List<RetryCommand> kanban = retryCommands.poll().stream().map(r -> InteractiveAvro.fromAvro(r.value())).toList();
        List<RouteCommand> office = routeCommands.poll().stream().map(ConsumerRecord::value).toList();
        assertThat(kanban).extracting(RetryCommand::sessionId).as("one Kanban retry per session")
                .containsExactlyInAnyOrder(kanbanOnSurvivor, kanbanOnDoomed);
        assertThat(kanban).extracting(RetryCommand::commandId).doesNotHaveDuplicates();
        assertThat(office).extracting(RouteCommand::getCommandId).as("each Office command once").containsExactlyInAnyOrder(
                "S-" + wsOnSurvivor + "#1", "S-" + wsOnSurvivor + "#2", "P-" + wsOnSurvivor + "#1", "P-" + wsOnSurvivor + "#2",
                "S-" + wsOnDoomed + "#1", "S-" + wsOnDoomed + "#2", "P-" + wsOnDoomed + "#1", "P-" + wsOnDoomed + "#2");
        for (RetryCommand c : kanban) {
            assertThat(c.retryAt()).isEqualTo(dueOf.get(c.sessionId()));
            assertFiredInTime(c.sessionId(), c.issuedAt(), c.retryAt(), failedAt, takeover);
        }
        for (RouteCommand c : office) {
            if (dueOf.containsKey(c.getCommandId())) {
                assertFiredInTime(c.getCommandId(), c.getIssuedAt(), dueOf.get(c.getCommandId()), failedAt, takeover);
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void log(String format, Object... args) {
        System.out.printf("TwoInstanceFailoverIT: " + format + "%n", args);
    }

    private static void assertFiredInTime(String what, Instant issued, Instant due, Instant failedAt, Instant takeover) {
        assertThat(issued).as("%s not before its due instant", what).isAfterOrEqualTo(due);
        assertThat(issued).as("%s after the failure (on the survivor)", what).isAfter(failedAt);
        Instant from = due.isAfter(takeover) ? due : takeover;
        assertThat(Duration.between(from, issued)).as("%s lag behind max(due, takeover)", what)
                .isLessThanOrEqualTo(PUNCTUATION.plus(SETTLE).plus(SLACK));
    }

    private void startDoomed(Map<String, String> config, int port) throws IOException {
        Path file = dir.resolve("doomed.properties");
        Properties p = new Properties();
        p.putAll(config);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "the instance that fails");
        }
        doomedLog = dir.resolve("doomed.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        doomed = new ProcessBuilder(List.of(java, "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + dir, "-cp", classPath, FailoverInstance.class.getName(), file.toString()))
                .redirectErrorStream(true).redirectOutput(doomedLog.toFile()).start();
        Process started = doomed;
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
    }

    /** The doomed instance's {@code /healthz} (its Streams state), or a note when it does not answer. */
    private String health(int port) throws Exception {
        if (!doomed.isAlive()) {
            throw new IllegalStateException("the doomed instance exited (" + doomed.exitValue() + "): "
                    + Files.readString(doomedLog));
        }
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/healthz")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body().trim();
        } catch (IOException e) {
            return "no answer";
        }
    }

    /** The partitions of {@code topic} whose tasks run on {@code runner}. */
    private static Set<Integer> owned(RecourseRunner runner, String topic) {
        return runner.streams().metadataForLocalThreads().stream()
                .flatMap(t -> t.activeTasks().stream())
                .flatMap(t -> t.topicPartitions().stream())
                .filter(tp -> tp.topic().equals(topic))
                .map(TopicPartition::partition)
                .collect(Collectors.toSet());
    }

    /** A key that Kafka's default partitioner puts on {@code partition} of {@link #PARTITIONS}. */
    private static String keyOn(int partition, String prefix) {
        for (int i = 0; ; i++) {
            String key = prefix + i;
            if (Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS == partition) {
                return key;
            }
        }
    }

    /** The dispatcher: ack {@code dispatched}, TurnStarted, then a failed TurnOutcome of {@code code}. */
    private void dispatchAndFail(RouteCommand c, Code code, Instant resetAt) throws Exception {
        Instant now = Instant.now();
        TurnContext t = RoutingEvents.turn(c, 1);
        String ack = "{\"command_id\":\"" + c.getCommandId() + "\",\"status\":\"dispatched\",\"run_id\":\"" + c.getRunId()
                + "\",\"workspace_id\":\"" + c.getWorkspaceId() + "\",\"session_id\":\"" + t.sessionId()
                + "\",\"prompt_generation\":" + t.promptGeneration() + ",\"occurred_at\":\"" + now + "\"}";
        producer.send(new ProducerRecord<>(topics.officeDispatchAcks().name(), c.getWorkspaceId(),
                ack.getBytes(StandardCharsets.UTF_8))).get();
        officeEvent(c.getWorkspaceId(), RoutingEvents.started(t, now));
        officeEvent(c.getWorkspaceId(), RoutingEvents.failed(t, code, resetAt, now));
    }

    private void kanbanEvent(SessionEvent e) throws Exception {
        producer.send(new ProducerRecord<>(InteractiveTestTopology.SESSION_EVENTS, e.sessionId(),
                AvroSerde.of(io.recourse.avro.SessionEvent.class).encode(AvroMapping.toAvro(e)))).get();
    }

    private void officeEvent(String ws, SessionEvent e) throws Exception {
        producer.send(new ProducerRecord<>(RoutingTestTopology.SESSION_EVENTS, ws,
                AvroSerde.of(io.recourse.avro.SessionEvent.class).encode(AvroMapping.toAvro(e)))).get();
    }

    private void request(String ws, String run, RouteConfig profile) throws Exception {
        producer.send(new ProducerRecord<>(topics.officeRunRequests().name(), ws, RoutingJsonFixtures.json(
                new RunRequest("q-" + run, run, ws, profile.dynamicProfileId(), "task-" + run, Instant.now())))).get();
    }

    private void routeConfig(RouteConfig c) throws Exception {
        producer.send(new ProducerRecord<>(topics.routeConfig().name(), c.dynamicProfileId(),
                RouteConfigJson.write(c).getBytes(StandardCharsets.UTF_8))).get();
    }

    private static RouteCommand awaitCommand(CommittedReader<RouteCommand> commands, String id) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(commands.poll()).extracting(r -> r.value().getCommandId())
                .contains(id));
        return commands.poll().stream().map(ConsumerRecord::value).filter(c -> c.getCommandId().equals(id)).findFirst()
                .orElseThrow();
    }

    private static RecoveryState awaitRecovery(CommittedReader<io.recourse.avro.RecoveryState> states, String session,
                                               RecoveryStatus status) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(lastOf(states, session)).as("recovery state of %s", session)
                .isNotNull().extracting(s -> InteractiveAvro.fromAvro(s).status()).isEqualTo(status));
        return InteractiveAvro.fromAvro(lastOf(states, session));
    }

    private static RunState awaitRun(CommittedReader<RunState> states, String run, String status) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(lastOf(states, run)).as("run state of %s", run).isNotNull()
                .extracting(RunState::getStatus).isEqualTo(status));
        return lastOf(states, run);
    }

    private static <V> V lastOf(CommittedReader<V> reader, String key) {
        V last = null;
        for (ConsumerRecord<String, V> r : reader.poll()) {
            if (key.equals(r.key())) {
                last = r.value();
            }
        }
        return last;
    }

    private static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
        Map<String, String> m = new LinkedHashMap<>(base);
        m.putAll(more);
        return m;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        open.add(closeable);
        return closeable;
    }
}
