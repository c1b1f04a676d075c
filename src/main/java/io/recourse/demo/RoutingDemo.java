package io.recourse.demo;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.CandidateBlock;
import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.Topics;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RouteAction;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.streams.RoutingOutput;
import io.recourse.routing.streams.RoutingTopology;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse demo-routing}: the routing scenario on an embedded broker, through the
 * whole pipeline (DESIGN §3–§8): ingress → evidence → classification → workspace-keyed
 * SessionEvents → routing owner, running the real {@link RecourseTopology} with
 * {@link JitterSource#none()} (exact short-retry delays) and the scaled record clock.
 *
 * <p>A built-in scripted dispatcher reads {@code recourse.office.route-commands}
 * ({@code read_committed}), acks each dispatchable command on {@code recourse.office.dispatch-acks}
 * and publishes the dispatched turn as real frame envelopes ({@code profile_kind=dynamic}) built from
 * the bundled samples' payloads: candidate 1 fails with model capacity (burst 1 clears on the owner's
 * second short retry; burst 2, 30 s after every run completed, does not clear), candidate 2 is
 * quota-limited with a reset 60 s after the frame, candidate 3 is auth-expired; after the reset a
 * turn on candidate 2 succeeds. The check is structural per run and per health key against
 * {@link RoutingDemoScenario} played on the {@link RoutingSimulator}: RouteCommand actions and
 * candidates, RunState statuses, ProviderHealth states, the 5 s / 10 s short retries, and one park
 * per run with {@code wake_at} ≈ the quota reset, released exactly once. Exit 0 when it holds, else
 * 1 with the first difference printed.
 */
@Command(name = "demo-routing", mixinStandardHelpOptions = true,
        description = "Run the routing scenario (3 candidates, 20 runs) on an embedded broker and print its timeline.")
public final class RoutingDemo implements Callable<Integer> {

    private static final List<RoutingOutput.Kind> KINDS = List.of(RoutingOutput.Kind.values());
    /** Wall-clock latency allowed per check (punctuation, commits, the dispatcher's poll), times the time scale. */
    static final Duration WALL_TOLERANCE = Duration.ofMillis(500);

    // 5×: the 30 s dispatch timeout is 6 s of wall time, enough for 20 runs' acks through the
    // exactly-once pipeline on a loaded machine (at 10× the 20-run demo saw dispatch_unconfirmed)
    @Option(names = "--time-scale", paramLabel = "N", defaultValue = "5",
            description = "Run the injected clock N times faster (default ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--runs", paramLabel = "COUNT", defaultValue = "20", description = "Concurrent runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "Wall-clock seconds to wait for the whole scenario (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), timeScale);
        Path stateDir = Files.createTempDirectory("recourse-demo-routing");
        Observed observed;
        Instant origin;
        Instant reset;
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(stateDir.resolve("broker")).start()) {
            RecourseConfig config = RecourseConfig.of(Map.of(
                    RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                    RecourseConfig.TOPICS_CREATE, "true",
                    RecourseConfig.STATE_DIR, stateDir.resolve("streams").toString(),
                    RecourseConfig.APPLICATION_ID, "recourse-demo-routing",
                    RecourseConfig.TOPIC_PARTITIONS, "2",
                    RecourseConfig.OWNER_PARTITIONS, "2",
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10",
                    // every hop of the pipeline waits for a transaction commit (exactly-once): commit often
                    StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "20",
                    // on a loaded machine an ack can take seconds of wall time through the pipeline:
                    // give it 90 s on the scaled clock (no dispatch times out in the scenario)
                    RecourseConfig.DISPATCH_TIMEOUT_MS, "90000"));
            try (RecourseRunner runner = new RecourseRunner(config,
                    c -> RecourseTopology.build(c, RecourseTopology.Options.with(RecourseMeters.global())
                            .withRecordClock(time::scaled).withRoutingJitter(JitterSource.none())), time)) {
                runner.start();
                try (Dispatcher d = new Dispatcher(runner, config, time, runs)) {
                    d.publishRouteConfig(RoutingDemoScenario.config());
                    origin = time.now();
                    out.printf("routing demo: %d runs, 3 candidates, time scale %.0fx on %s%n", runs, timeScale,
                            broker.bootstrapServers());
                    out.flush();
                    try {
                        d.run(Instant.now().plusSeconds(timeoutSeconds));
                    } catch (IllegalStateException e) {
                        out.println("-- " + e.getMessage());
                    }
                    observed = d.observed;
                    reset = d.quotaReset;
                }
            }
        } finally {
            deleteQuietly(stateDir);
        }
        Duration tolerance = Duration.ofMillis(Math.max(3000, (long) (WALL_TOLERANCE.toMillis() * timeScale)));
        return report(out, origin, reset, observed, runs, tolerance);
    }

    // ------------------------------------------------------------------ the scripted dispatcher

    /** Every output record read so far, per topic, in read order. */
    static final class Observed {
        final Map<RoutingOutput.Kind, List<ConsumerRecord<String, ? extends SpecificRecord>>> records = new EnumMap<>(RoutingOutput.Kind.class);
        /** Dead letters seen (a frame the dispatcher built that ingress rejected is a demo bug): headers and value. */
        final List<String> deadLetters = new ArrayList<>();

        Observed() {
            KINDS.forEach(k -> records.put(k, new ArrayList<>()));
        }
    }

    /** What the dispatcher makes a dispatched turn end with. */
    enum TurnEnd { CAPACITY, QUOTA, AUTH, SUCCESS }

    /** Acks route commands and publishes each dispatched turn's frames. */
    private static final class Dispatcher implements AutoCloseable {

        private final RecourseRunner runner;
        private final Topics topics;
        private final ScaledTime time;
        private final int runs;
        private final KafkaProducer<String, byte[]> producer;
        private final Map<String, RoutingOutput.Kind> kinds = new java.util.HashMap<>();
        private final Map<String, Deserializer<? extends SpecificRecord>> values = new java.util.HashMap<>();
        private final KafkaConsumer<String, byte[]> outputs;
        final Observed observed = new Observed();
        private final JsonMapper json = JsonMapper.builder().build();
        private final InteractiveScenarios.Frames frames = new InteractiveScenarios.Frames();
        private final java.util.Set<String> commandIds = new java.util.HashSet<>();
        private final Map<String, String> sessionOf = new java.util.HashMap<>();
        private final Map<String, Integer> sessionsOf = new java.util.HashMap<>();
        private final Map<String, Integer> generationOf = new java.util.HashMap<>();
        private final Map<String, Long> seqOf = new java.util.HashMap<>();
        private final java.util.Set<String> burstOneDone = new java.util.HashSet<>();
        private final java.util.Set<String> woken = new java.util.HashSet<>();
        private boolean firstRetryFailed;
        private int phase = 1;
        private Instant burstTwoAt;
        Instant quotaReset;

        Dispatcher(RecourseRunner runner, RecourseConfig config, ScaledTime time, int runs) {
            this.runner = runner;
            this.topics = Topics.from(config);
            this.time = time;
            this.runs = runs;
            String bootstrap = runner.bootstrapServers();
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                    new StringSerializer(), new ByteArraySerializer());
            kinds.put(topics.officeRouteCommands().name(), RoutingOutput.Kind.ROUTE_COMMAND);
            kinds.put(topics.officeRunState().name(), RoutingOutput.Kind.RUN_STATE);
            kinds.put(topics.officeRouteAttempts().name(), RoutingOutput.Kind.ROUTE_ATTEMPT);
            kinds.put(topics.officeProviderHealth().name(), RoutingOutput.Kind.PROVIDER_HEALTH);
            kinds.put(topics.officeParkedRuns().name(), RoutingOutput.Kind.PARKED_RUN);
            values.put(topics.officeRouteCommands().name(), topics.officeRouteCommands().valueSerde().deserializer());
            values.put(topics.officeRunState().name(), topics.officeRunState().valueSerde().deserializer());
            values.put(topics.officeRouteAttempts().name(), topics.officeRouteAttempts().valueSerde().deserializer());
            values.put(topics.officeProviderHealth().name(), topics.officeProviderHealth().valueSerde().deserializer());
            values.put(topics.officeParkedRuns().name(), topics.officeParkedRuns().valueSerde().deserializer());
            outputs = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5,
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : kinds.keySet()) {
                outputs.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            outputs.assign(partitions);
            outputs.seekToBeginning(partitions);
            dlq = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> dlqPartitions = dlq.partitionsFor(topics.dlq().name()).stream()
                    .map(p -> new TopicPartition(topics.dlq().name(), p.partition())).toList();
            dlq.assign(dlqPartitions);
            dlq.seekToBeginning(dlqPartitions);
        }

        private final KafkaConsumer<byte[], byte[]> dlq;

        /** Publishes the demo's route configuration and waits until the owner's global store holds it. */
        void publishRouteConfig(RouteConfig cfg) throws Exception {
            producer.send(new ProducerRecord<>(topics.routeConfig().name(), cfg.dynamicProfileId(),
                    RouteConfigJson.write(cfg).getBytes(StandardCharsets.UTF_8))).get();
            var store = runner.streams().store(StoreQueryParameters.fromNameAndType(RoutingTopology.ROUTE_CONFIG_STORE,
                    QueryableStoreTypes.<String, RouteConfigValue>keyValueStore()));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (store.get(cfg.dynamicProfileId()) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the route configuration never reached " + RoutingTopology.ROUTE_CONFIG_STORE);
                }
                Thread.sleep(20);
            }
        }

        /** Requests every run, then dispatches commands until every run ran a turn after its wake. */
        void run(Instant deadline) throws Exception {
            String ws = RoutingDemoScenario.WORKSPACE;
            for (String id : RoutingDemoScenario.runIds(runs)) {
                send(topics.officeRunRequests().name(), ws, json.createObjectNode().put("type", "run_request")
                        .put("request_id", "req-" + id).put("run_id", id).put("workspace_id", ws)
                        .put("dynamic_profile_id", RoutingDemoScenario.PROFILE).put("task_id", "task-" + id)
                        .put("occurred_at", time.now().toString()));
            }
            Instant settled = null;
            while (true) {
                poll(Duration.ofMillis(10));
                if (phase == 1 && burstTwoAt == null && burstOneDone.size() == runs) {
                    burstTwoAt = time.now().plusSeconds(30);
                }
                if (phase == 1 && burstTwoAt != null && !time.now().isBefore(burstTwoAt)) {
                    phase = 2; // burst 2: a new user turn on every run's session hits capacity
                    for (String id : RoutingDemoScenario.runIds(runs)) {
                        publishTurn(id, sessionOf.get(id), "user", null, 0, TurnEnd.CAPACITY);
                    }
                }
                if (settled == null && woken.size() == runs) {
                    settled = Instant.now().plusSeconds(3);
                }
                if (settled != null && Instant.now().isAfter(settled)) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("timed out: " + woken.size() + " of " + runs
                            + " runs ran their turn after the wake (phase " + phase + ")");
                }
            }
        }

        private void poll(Duration d) throws Exception {
            for (ConsumerRecord<String, byte[]> raw : outputs.poll(d)) {
                SpecificRecord v = raw.value() == null ? null : values.get(raw.topic()).deserialize(raw.topic(), raw.value());
                ConsumerRecord<String, SpecificRecord> r = new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(),
                        raw.timestamp(), raw.timestampType(), raw.serializedKeySize(), raw.serializedValueSize(),
                        raw.key(), v, raw.headers(), raw.leaderEpoch());
                observed.records.get(kinds.get(raw.topic())).add(r);
                if (v instanceof RouteCommand c) {
                    dispatch(c);
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : dlq.poll(Duration.ZERO)) {
                StringBuilder h = new StringBuilder();
                r.headers().forEach(x -> h.append(x.key()).append('=').append(new String(x.value(), StandardCharsets.UTF_8)).append(' '));
                observed.deadLetters.add(h + (r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8)));
            }
        }

        /** Acks {@code c} {@code dispatched} and publishes its turn; declines are only recorded. */
        private void dispatch(RouteCommand c) throws Exception {
            RouteAction action = RouteAction.fromWire(c.getAction());
            if (action == RouteAction.DECLINE || !commandIds.add(c.getCommandId())) {
                return;
            }
            String run = c.getRunId();
            String session;
            if (action == RouteAction.RETRY_SAME_ROUTE && sessionOf.containsKey(run)) {
                session = sessionOf.get(run);
            } else {
                int n = sessionsOf.merge(run, 1, Integer::sum);
                session = run + "-s" + n;
            }
            int generation = generationOf.getOrDefault(session, 0) + 1;
            ObjectNode ack = json.createObjectNode().put("command_id", c.getCommandId()).put("status", "dispatched")
                    .put("run_id", run).put("workspace_id", c.getWorkspaceId()).put("session_id", session)
                    .put("prompt_generation", generation).put("occurred_at", time.now().toString());
            send(topics.officeDispatchAcks().name(), c.getWorkspaceId(), ack);
            int candidate = candidateIndex(c.getExecutionProfileId());
            TurnEnd end = switch (candidate) {
                case 0 -> {
                    if (phase == 2 || action == RouteAction.LAUNCH) {
                        yield TurnEnd.CAPACITY;
                    }
                    if (!firstRetryFailed) {
                        firstRetryFailed = true;
                        yield TurnEnd.CAPACITY;
                    }
                    burstOneDone.add(run);
                    yield TurnEnd.SUCCESS;
                }
                case 1 -> {
                    if (quotaReset != null && !time.now().isBefore(quotaReset)) {
                        woken.add(run);
                        yield TurnEnd.SUCCESS;
                    }
                    yield TurnEnd.QUOTA;
                }
                default -> TurnEnd.AUTH;
            };
            String origin = action == RouteAction.RETRY_SAME_ROUTE ? "retry"
                    : action == RouteAction.FRESH_SESSION_CONTINUATION ? "continuation" : "scheduled";
            publishTurn(run, session, origin, c, candidate, end);
        }

        private static int candidateIndex(String executionProfileId) {
            for (int i = 0; i < RoutingDemoScenario.CANDIDATES.size(); i++) {
                if (RoutingDemoScenario.CANDIDATES.get(i).executionProfileId().equals(executionProfileId)) {
                    return i;
                }
            }
            throw new IllegalStateException("unknown candidate " + executionProfileId);
        }

        /** The next generation of {@code session}: the {@code session/prompt} request, then {@code end}'s frames. */
        private void publishTurn(String run, String session, String origin, RouteCommand c, int candidateIndex,
                                 TurnEnd end) {
            sessionOf.put(run, session);
            int generation = generationOf.merge(session, 1, Integer::sum);
            long seq = seqOf.getOrDefault(session, 1L);
            String sample = switch (end) {
                case CAPACITY -> "codex_capacity_jsonrpc_error";
                case QUOTA -> "codex_usage_limit_with_reset";
                case AUTH -> "claude_oauth_token_expired";
                case SUCCESS -> "claude_completed_with_tool";
            };
            List<ObjectNode> turn = new ArrayList<>();
            ObjectNode prompt = frames.frame(sample, 0);
            prompt.put("prompt_origin", origin);
            if (c != null) {
                prompt.put("command_id", c.getCommandId());
            }
            if ("retry".equals(origin)) {
                prompt.put("retry_of_generation", generation - 1);
            }
            turn.add(prompt);
            switch (end) {
                case CAPACITY -> {
                    turn.add(frames.frame(sample, 1));
                    turn.add(frames.frame(sample, 2));
                }
                case QUOTA -> {
                    ObjectNode http = frames.frame(sample, 1);
                    ((ObjectNode) http.get("payload").get("body").get("error")).put("resets_in_seconds", 60);
                    turn.add(http);
                    turn.add(frames.frame(sample, 2));
                }
                case AUTH -> {
                    turn.add(frames.frame(sample, 1));
                    turn.add(frames.frame(sample, 2));
                }
                case SUCCESS -> {
                    turn.add(frames.frame(sample, 1)); // agent_message_chunk
                    turn.add(frames.frame(sample, 6)); // end_turn
                }
            }
            var cand = RoutingDemoScenario.CANDIDATES.get(candidateIndex);
            Instant at = time.now();
            for (int i = 0; i < turn.size(); i++) {
                ObjectNode f = turn.get(i);
                Instant occurred = at.plusMillis(i);
                f.put("session_id", session).put("prompt_generation", generation).put("seq", seq + i)
                        .put("occurred_at", occurred.toString()).put("profile_kind", "dynamic")
                        .put("workspace_id", RoutingDemoScenario.WORKSPACE).put("run_id", run)
                        .put("task_id", "task-" + run)
                        .put("execution_profile_id", cand.executionProfileId())
                        .put("provider_id", cand.providerId()).put("model_id", cand.modelId());
                ObjectNode payload = (ObjectNode) f.get("payload");
                if (payload.has("jsonrpc") && payload.has("id")) {
                    payload.put("id", 100 + generation);
                }
                if (end == TurnEnd.QUOTA && i == 1 && quotaReset == null) {
                    quotaReset = occurred.plusSeconds(60);
                }
                producer.send(new ProducerRecord<>(topics.agentFrames().name(), session + "/" + generation,
                        f.toString().getBytes(StandardCharsets.UTF_8)));
            }
            seqOf.put(session, seq + turn.size());
            producer.flush();
        }

        private void send(String topic, String key, ObjectNode n) throws Exception {
            producer.send(new ProducerRecord<>(topic, key, n.toString().getBytes(StandardCharsets.UTF_8))).get();
        }

        @Override
        public void close() {
            producer.close();
            outputs.close();
            dlq.close();
        }
    }

    // ------------------------------------------------------------------ report

    private static int report(PrintWriter out, Instant origin, Instant reset, Observed observed, int runs, Duration tolerance) {
        List<ConsumerRecord<String, ? extends SpecificRecord>> all = new ArrayList<>();
        KINDS.forEach(k -> all.addAll(observed.records.get(k)));
        all.sort(Comparator.comparingLong((ConsumerRecord<String, ? extends SpecificRecord> r) -> r.timestamp())
                .thenComparingInt(r -> order(r.topic())).thenComparingLong(ConsumerRecord::offset));
        out.println("-- route timeline (scaled clock, from the demo's start)");
        for (ConsumerRecord<String, ? extends SpecificRecord> r : all) {
            out.println("+" + offset(origin, Instant.ofEpochMilli(r.timestamp())) + " " + line(r.key(), r.value(), origin));
        }
        out.println("-- provider health");
        Map<String, ProviderHealth> health = new TreeMap<>();
        observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH).forEach(r -> health.put(r.key(), (ProviderHealth) r.value()));
        health.forEach((k, h) -> out.println(k + " " + h.getState() + " step=" + h.getBackoffStep()
                + (h.getCode() == null ? "" : " code=" + h.getCode())
                + (h.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, h.getRetryAt()))));
        out.println("-- parked runs (each park, and when it was released)"
                + (reset == null ? "" : "; quota reset at +" + offset(origin, reset)));
        Map<String, String> parked = new TreeMap<>();
        for (ConsumerRecord<String, ? extends SpecificRecord> r : observed.records.get(RoutingOutput.Kind.PARKED_RUN)) {
            if (r.value() instanceof ParkedRun p) {
                parked.put(r.key(), p.getStatus() + (p.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, p.getWakeAt()))
                        + " " + blocks(p.getCandidates()));
            } else if (parked.containsKey(r.key())) {
                parked.put(r.key(), parked.get(r.key()) + " released=+" + offset(origin, Instant.ofEpochMilli(r.timestamp())));
            }
        }
        parked.forEach((k, v) -> out.println(k + " " + v));

        List<String> differences = check(observed, reset, runs, tolerance);
        if (!observed.deadLetters.isEmpty()) {
            out.println("-- dead letters: " + observed.deadLetters.size());
            observed.deadLetters.stream().limit(5).forEach(out::println);
            differences.add(0, observed.deadLetters.size() + " dead letters, first: " + observed.deadLetters.get(0));
        }
        if (differences.isEmpty()) {
            out.printf("-- timeline as expected: %d runs and %d health keys follow the scenario%n", runs, health.size());
            out.flush();
            return 0;
        }
        out.printf("-- timeline DIFFERS from the scenario in %d places; first: %s%n", differences.size(), differences.get(0));
        differences.stream().skip(1).limit(20).forEach(out::println);
        out.flush();
        return 1;
    }

    /**
     * The structural check: per run, the RouteCommand {@code action:candidate} sequence and the
     * RunState status sequence (repeats collapsed) equal the simulator's for the scenario; per health
     * key, the state sequence (repeats collapsed) equals the simulator's; the owner's short retries
     * are 5 s and 10 s, each issued within {@code tolerance} of its {@code retry_at}; every run is parked once with {@code wake_at} within {@code tolerance} of the reset and released once.
     */
    static List<String> check(Observed observed, Instant reset, int runs, Duration tolerance) {
        RoutingSimulator sim = RoutingDemoScenario.simulator(Instant.parse("2026-01-01T00:00:00Z"), JitterSource.none());
        RoutingDemoScenario.play(sim, runs);
        Map<String, List<String>> expCommands = new TreeMap<>();
        Map<String, List<String>> expStates = new TreeMap<>();
        Map<String, List<String>> expHealth = new TreeMap<>();
        for (RoutingDecision d : sim.decisions()) {
            d.commands().forEach(c -> expCommands.computeIfAbsent(c.runId(), x -> new ArrayList<>()).add(c.action().wire()
                    + ":" + (c.candidate() == null ? "-" : c.candidate().executionProfileId())));
            d.runStates().forEach(s -> collapse(expStates.computeIfAbsent(s.runId(), x -> new ArrayList<>()), s.status().wire()));
            d.health().forEach(h -> collapse(expHealth.computeIfAbsent(h.key().healthKey(), x -> new ArrayList<>()), h.state().wire()));
        }
        // beyond the simulator's script: the wake's relaunch on the second candidate succeeds, which
        // resets that candidate's health to healthy
        var second = RoutingDemoScenario.CANDIDATES.get(1);
        String secondKey = RoutingDemoScenario.WORKSPACE + "/" + second.providerId() + "/provider/" + second.providerId();
        collapse(expHealth.computeIfAbsent(secondKey, x -> new ArrayList<>()), "healthy");
        Map<String, List<String>> commands = new TreeMap<>();
        Map<String, List<String>> states = new TreeMap<>();
        Map<String, List<String>> health = new TreeMap<>();
        Map<String, List<RunState>> retries = new TreeMap<>();
        for (var r : observed.records.get(RoutingOutput.Kind.ROUTE_COMMAND)) {
            RouteCommand c = (RouteCommand) r.value();
            commands.computeIfAbsent(c.getRunId(), x -> new ArrayList<>()).add(c.getAction() + ":"
                    + (c.getExecutionProfileId() == null ? "-" : c.getExecutionProfileId()));
        }
        for (var r : observed.records.get(RoutingOutput.Kind.RUN_STATE)) {
            RunState s = (RunState) r.value();
            collapse(states.computeIfAbsent(s.getRunId(), x -> new ArrayList<>()), s.getStatus());
            if (s.getRetryAt() != null && s.getRetryOrdinal() != null) {
                retries.computeIfAbsent(s.getRunId(), x -> new ArrayList<>()).add(s);
            }
        }
        for (var r : observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH)) {
            collapse(health.computeIfAbsent(r.key(), x -> new ArrayList<>()), ((ProviderHealth) r.value()).getState());
        }
        List<String> diffs = new ArrayList<>();
        // the second candidate's quota: degraded quota_limited until ≈ the reset
        boolean quota = observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH).stream()
                .filter(r -> r.key().equals(secondKey)).map(r -> (ProviderHealth) r.value())
                .anyMatch(h -> "degraded".equals(h.getState()) && "quota_limited".equals(h.getCode()) && reset != null
                        && h.getRetryAt() != null && Duration.between(reset, h.getRetryAt()).abs().compareTo(tolerance) <= 0);
        if (!quota) {
            diffs.add("health " + secondKey + ": expected degraded quota_limited with retry_at ≈ the reset " + reset);
        }
        for (String run : RoutingDemoScenario.runIds(runs)) {
            firstDifference(diffs, run + " route commands", expCommands.get(run), commands.get(run));
            firstDifference(diffs, run + " run states", expStates.get(run), states.get(run));
        }
        for (String key : union(expHealth, health)) {
            firstDifference(diffs, "health " + key, expHealth.get(key), health.get(key));
        }
        // the owner's short retries in burst 1: exactly 5 s, then 10 s (no jitter)
        List<RunState> owner = retries.getOrDefault(RoutingDemoScenario.runIds(runs).get(0), List.of());
        List<Duration> expectedDelays = List.of(Duration.ofSeconds(5), Duration.ofSeconds(10));
        for (int i = 0; i < expectedDelays.size(); i++) {
            if (owner.size() <= i) {
                diffs.add("run-01 short retry " + (i + 1) + ": expected a delay of " + expectedDelays.get(i) + " but none was scheduled");
                break;
            }
            Duration delay = Duration.between(owner.get(i).getUpdatedAt(), owner.get(i).getRetryAt());
            if (delay.minus(expectedDelays.get(i)).abs().compareTo(Duration.ofMillis(50)) > 0) {
                diffs.add("run-01 short retry " + (i + 1) + ": expected a delay of " + expectedDelays.get(i) + " but was " + delay);
            }
        }
        // the owner's retry commands are issued when due on the scaled clock
        List<Instant> retryIssued = observed.records.get(RoutingOutput.Kind.ROUTE_COMMAND).stream()
                .map(r -> (RouteCommand) r.value())
                .filter(c -> c.getRunId().equals(RoutingDemoScenario.runIds(runs).get(0)) && "retry_same_route".equals(c.getAction()))
                .map(RouteCommand::getIssuedAt).toList();
        for (int i = 0; i < Math.min(2, Math.min(owner.size(), retryIssued.size())); i++) {
            Duration late = Duration.between(owner.get(i).getRetryAt(), retryIssued.get(i));
            if (late.isNegative() || late.compareTo(tolerance) > 0) {
                diffs.add("run-01 short retry " + (i + 1) + ": issued " + late + " after its retry_at (tolerance " + tolerance + ")");
            }
        }
        // parks: one per run, wake_at ≈ the quota reset, released exactly once
        Map<String, Integer> parks = new TreeMap<>();
        Map<String, Integer> releases = new TreeMap<>();
        for (var r : observed.records.get(RoutingOutput.Kind.PARKED_RUN)) {
            if (r.value() instanceof ParkedRun p) {
                parks.merge(r.key(), 1, Integer::sum);
                if (!"waiting_for_provider_capacity".equals(p.getStatus())) {
                    diffs.add(r.key() + " parked as " + p.getStatus() + ", expected waiting_for_provider_capacity");
                }
                if (reset == null || p.getWakeAt() == null
                        || Duration.between(reset, p.getWakeAt()).abs().compareTo(tolerance) > 0) {
                    diffs.add(r.key() + " parked with wake_at " + p.getWakeAt() + ", expected ≈ the quota reset " + reset);
                }
            } else {
                releases.merge(r.key(), 1, Integer::sum);
            }
        }
        for (String run : RoutingDemoScenario.runIds(runs)) {
            String key = parks.keySet().stream().filter(k -> k.endsWith(run)).findFirst().orElse(run);
            if (parks.getOrDefault(key, 0) != 1 || releases.getOrDefault(key, 0) != 1) {
                diffs.add(run + ": expected parked once and woken exactly once, was parked " + parks.getOrDefault(key, 0)
                        + " and released " + releases.getOrDefault(key, 0) + " times");
            }
        }
        return diffs;
    }

    private static void collapse(List<String> seq, String next) {
        if (seq.isEmpty() || !seq.get(seq.size() - 1).equals(next)) {
            seq.add(next);
        }
    }

    private static void firstDifference(List<String> diffs, String what, List<String> expected, List<String> actual) {
        List<String> e = expected == null ? List.of() : expected;
        List<String> a = actual == null ? List.of() : actual;
        for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
            String ei = i < e.size() ? e.get(i) : "(nothing)";
            String ai = i < a.size() ? a.get(i) : "(nothing)";
            if (!ei.equals(ai)) {
                diffs.add(what + " step " + i + ": expected " + ei + " but was " + ai + " (expected " + e + ", was " + a + ")");
                return;
            }
        }
    }

    private static List<String> union(Map<String, ?> a, Map<String, ?> b) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return List.copyOf(keys);
    }

    private static int order(String topic) {
        if (topic.endsWith("route-attempts")) {
            return 0;
        } else if (topic.endsWith("provider-health")) {
            return 1;
        } else if (topic.endsWith("parked-runs")) {
            return 2;
        } else if (topic.endsWith("run-state")) {
            return 3;
        }
        return 4;
    }

    private static String line(String key, SpecificRecord v, Instant origin) {
        if (v == null) {
            return "release " + key;
        }
        if (v instanceof RouteCommand c) {
            return "command " + c.getCommandId() + " " + c.getAction() + " on=" + c.getExecutionProfileId()
                    + " reason=" + c.getReason();
        }
        if (v instanceof RunState s) {
            return "state " + s.getRunId() + " " + s.getStatus() + " attempt=" + s.getAttempt()
                    + (s.getExecutionProfileId() == null ? "" : " on=" + s.getExecutionProfileId())
                    + (s.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, s.getRetryAt()) + " ("
                    + s.getRetryOrdinal() + "/" + s.getMaxRetries() + ")")
                    + (s.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, s.getWakeAt()))
                    + (s.getReason() == null ? "" : " reason=" + s.getReason());
        }
        if (v instanceof RouteAttempt a) {
            return "attempt " + a.getRunId() + " #" + a.getSequence() + " " + a.getOutcome() + " "
                    + (a.getExecutionProfileId() == null ? "-" : a.getExecutionProfileId())
                    + (a.getCode() == null ? "" : " " + a.getCode());
        }
        if (v instanceof ProviderHealth h) {
            return "health " + key + " " + h.getState() + (h.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, h.getRetryAt()));
        }
        if (v instanceof ParkedRun p) {
            return "park " + p.getRunId() + " " + p.getStatus() + (p.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, p.getWakeAt()));
        }
        return String.valueOf(v);
    }

    private static String blocks(List<CandidateBlock> blocks) {
        return blocks.stream().map(b -> b.getExecutionProfileId() + "=" + b.getReason()
                + (b.getCode() == null ? "" : ":" + b.getCode())).toList().toString();
    }

    private static String offset(Instant origin, Instant i) {
        Duration d = Duration.between(origin, i);
        boolean neg = d.isNegative();
        d = d.abs();
        return String.format("%s%02d:%02d:%02d.%03d", neg ? "-" : "", d.toHours(), d.toMinutesPart(), d.toSecondsPart(),
                d.toMillisPart());
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp dir
        }
    }
}
