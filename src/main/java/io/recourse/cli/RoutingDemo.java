package io.recourse.cli;

import io.recourse.avro.CandidateBlock;
import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunState;
import io.recourse.classification.Classification;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.routing.Decision;
import io.recourse.routing.JitterSource;
import io.recourse.routing.OfficeDispatchAck;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RoutingDemoScenario;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import io.recourse.routing.TimerEntry;
import io.recourse.routing.WorkspaceState;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.RecourseConfig;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
import io.recourse.streams.AvroMapping;
import io.recourse.streams.AvroSerde;
import io.recourse.streams.RoutingOutput;
import io.recourse.streams.RoutingRecords;
import io.recourse.streams.RoutingTopology;
import io.recourse.streams.Topics;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse demo-routing}: the routing scenario of issue 7 on an embedded broker (DESIGN §7,
 * §8). A dynamic profile of three candidates and 20 concurrent runs on one workspace
 * ({@link RoutingDemoScenario}): capacity on the first candidate clears after two short retries
 * (the other runs wait, then all proceed); a second burst does not clear, so the runs fall through
 * to the second candidate (quota, reset 60 s away) and the third (auth expired), park
 * {@code waiting_for_provider_capacity} and wake when the reset passes.
 *
 * <p>The expected timeline is the {@link RoutingSimulator}'s, played with {@link JitterSource#none()}
 * (the demo's jitter source too, so delays are exact). A built-in scripted dispatcher replays the
 * simulator's inputs against the running application in lock step — each input only after every
 * record the simulator wrote before it has appeared on the output topics (read_committed), and not
 * before its own instant on the scaled clock — so run requests, acks and turn events reach the
 * owner in the simulator's order while timers fire on the application's own punctuator. Until the
 * evidence stage is wired into the Recourse topology, turn events are published as SessionEvents
 * on {@value #SESSION_EVENTS_TOPIC} (keyed by workspace) instead of as frames.
 *
 * <p>{@code --time-scale N} runs the injected clock N× faster ({@link ScaledTime} passed to Kafka
 * Streams); record timestamps are mapped through it. Prints the route timeline, the provider
 * health table and the parked runs; exit 0 when, per run and per health key, every output record
 * equals the simulator's (instants compared as exact delays where the scenario fixes them), else 1.
 */
@Command(name = "demo-routing", mixinStandardHelpOptions = true,
        description = "Run the routing scenario (3 candidates, 20 runs) on an embedded broker and print its timeline.")
public final class RoutingDemo implements Callable<Integer> {

    /** The demo's SessionEvent input (until frames reach the routing owner through the evidence stage). */
    public static final String SESSION_EVENTS_TOPIC = "recourse.demo.routing-session-events";
    static final String SESSION_EVENTS_SOURCE = "recourse-demo-routing-session-events-source";
    private static final List<RoutingOutput.Kind> KINDS = List.of(RoutingOutput.Kind.values());

    @Option(names = "--time-scale", paramLabel = "N", defaultValue = "10",
            description = "Run the injected clock N times faster (default ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--runs", paramLabel = "COUNT", defaultValue = "20", description = "Concurrent runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "Wall-clock seconds to wait for the whole scenario (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    /** The demo topology: the routing stage fed from {@value #SESSION_EVENTS_TOPIC}. */
    public static Topology topology(RecourseConfig config, RoutingTopology.Options options) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElse("unused:9092"));
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(p)));
        var events = builder.stream(SESSION_EVENTS_TOPIC, Consumed.with(Serdes.String(),
                AvroSerde.of(io.recourse.avro.SessionEvent.class)).withName(SESSION_EVENTS_SOURCE));
        RoutingTopology.attach(builder, RoutingTopology.byWorkspace(events, config), Topics.from(config), config, options);
        return builder.build();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), timeScale);
        Path stateDir = Files.createTempDirectory("recourse-demo-routing");
        Observed observed;
        Instant origin;
        RoutingSimulator sim;
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(stateDir.resolve("broker")).start()) {
            // the demo's SessionEvent topic must exist before Streams subscribes to it
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(SESSION_EVENTS_TOPIC, 2, (short) 1))).all().get();
            }
            RecourseConfig config = RecourseConfig.of(Map.of(
                    RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                    RecourseConfig.TOPICS_CREATE, "true",
                    RecourseConfig.STATE_DIR, stateDir.resolve("streams").toString(),
                    RecourseConfig.APPLICATION_ID, "recourse-demo-routing",
                    RecourseConfig.TOPIC_PARTITIONS, "2",
                    RecourseConfig.OWNER_PARTITIONS, "2",
                    // the dispatcher answers in lock step: keep Streams' fetches short
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10"));
            RoutingTopology.Options options = new RoutingTopology.Options(RoutingTopology.settings(config),
                    JitterSource.none(), time::scaled);
            try (RecourseRunner runner = new RecourseRunner(config, c -> topology(c, options), time)) {
                runner.start();
                try (Dispatcher d = new Dispatcher(runner, config, time)) {
                    d.publishRouteConfig(RoutingDemoScenario.config());
                    // the expected timeline starts now on the scaled clock
                    origin = time.now();
                    sim = RoutingDemoScenario.simulator(origin, JitterSource.none());
                    Instant reset = RoutingDemoScenario.play(sim, runs);
                    out.printf("routing demo: %d runs, 3 candidates, time scale %.0fx on %s; the simulator expects %d"
                            + " decisions, quota reset at +%s%n", runs, timeScale, broker.bootstrapServers(),
                            sim.decisions().size(), offset(origin, reset));
                    out.flush();
                    try {
                        d.replay(sim, Instant.now().plusSeconds(timeoutSeconds));
                    } catch (IllegalStateException e) {
                        out.println("-- " + e.getMessage());
                    }
                    observed = d.observed;
                }
            }
        } finally {
            deleteQuietly(stateDir);
        }
        return report(out, sim, origin, observed);
    }

    // ------------------------------------------------------------------ the scripted dispatcher

    /** Every output record read so far, per topic, in read order. */
    static final class Observed {
        final Map<RoutingOutput.Kind, List<ConsumerRecord<String, ? extends SpecificRecord>>> records = new EnumMap<>(RoutingOutput.Kind.class);

        Observed() {
            KINDS.forEach(k -> records.put(k, new ArrayList<>()));
        }

        private final Map<String, Integer> perKey = new java.util.HashMap<>();

        int count(RoutingOutput.Kind k) {
            return records.get(k).size();
        }

        /** Records read so far with this key, on any of the five topics. */
        int count(String key) {
            return perKey.getOrDefault(key, 0);
        }

        void add(RoutingOutput.Kind k, ConsumerRecord<String, ? extends SpecificRecord> r) {
            records.get(k).add(r);
            perKey.merge(r.key(), 1, Integer::sum);
        }
    }

    /** Replays the simulator's inputs in lock step with the application's outputs. */
    private static final class Dispatcher implements AutoCloseable {

        private final RecourseRunner runner;
        private final Topics topics;
        private final ScaledTime time;
        private final KafkaProducer<String, byte[]> producer;
        private final Map<RoutingOutput.Kind, KafkaConsumer<String, ? extends SpecificRecord>> consumers = new EnumMap<>(RoutingOutput.Kind.class);
        final Observed observed = new Observed();
        private final JsonMapper json = JsonMapper.builder().build();
        private final AvroSerde<io.recourse.avro.SessionEvent> events = AvroSerde.of(io.recourse.avro.SessionEvent.class);

        Dispatcher(RecourseRunner runner, RecourseConfig config, ScaledTime time) {
            this.runner = runner;
            this.topics = Topics.from(config);
            this.time = time;
            String bootstrap = runner.bootstrapServers();
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                    new StringSerializer(), new ByteArraySerializer());
            consumers.put(RoutingOutput.Kind.ROUTE_COMMAND, consumer(bootstrap, topics.officeRouteCommands().name(),
                    topics.officeRouteCommands().valueSerde().deserializer()));
            consumers.put(RoutingOutput.Kind.RUN_STATE, consumer(bootstrap, topics.officeRunState().name(),
                    topics.officeRunState().valueSerde().deserializer()));
            consumers.put(RoutingOutput.Kind.ROUTE_ATTEMPT, consumer(bootstrap, topics.officeRouteAttempts().name(),
                    topics.officeRouteAttempts().valueSerde().deserializer()));
            consumers.put(RoutingOutput.Kind.PROVIDER_HEALTH, consumer(bootstrap, topics.officeProviderHealth().name(),
                    topics.officeProviderHealth().valueSerde().deserializer()));
            consumers.put(RoutingOutput.Kind.PARKED_RUN, consumer(bootstrap, topics.officeParkedRuns().name(),
                    topics.officeParkedRuns().valueSerde().deserializer()));
        }

        private static <V extends SpecificRecord> KafkaConsumer<String, V> consumer(String bootstrap, String topic,
                                                                                   Deserializer<V> values) {
            KafkaConsumer<String, V> c = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5,
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), values);
            List<TopicPartition> partitions = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(partitions);
            c.seekToBeginning(partitions);
            return c;
        }

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
                poll(Duration.ofMillis(50));
            }
        }

        /**
         * Publishes each scripted input once the application has written every record the simulator
         * wrote for that input's run before it (so an ack follows its command, a turn event its ack),
         * and not before the input's own instant shifted by the lag so far. Inputs of different runs
         * do not wait for each other (one run's round trip must not delay another's ack past the
         * dispatch timeout); each run's inputs keep their order, and ready inputs go in script order.
         */
        void replay(RoutingSimulator sim, Instant deadline) throws Exception {
            List<RoutingSimulator.Step> steps = sim.inputs();
            List<Decision> decisions = sim.decisions();
            Map<String, Integer> expected = new java.util.HashMap<>();
            List<Integer> pending = new ArrayList<>();
            Map<Integer, Integer> needed = new java.util.HashMap<>();
            WorkspaceState before = WorkspaceState.empty(RoutingDemoScenario.WORKSPACE);
            Map<String, RouteConfig> cfg = Map.of(RoutingDemoScenario.PROFILE, RoutingDemoScenario.config());
            for (int i = 0; i < steps.size(); i++) {
                if (!(steps.get(i).input() instanceof TimerEntry)) {
                    pending.add(i);
                    needed.put(i, expected.getOrDefault(runOf(steps.get(i).input()), 0));
                }
                for (RoutingOutput o : RoutingRecords.of(decisions.get(i), before, cfg::get)) {
                    expected.merge(o.key(), 1, Integer::sum);
                }
                before = decisions.get(i).state();
            }
            Duration drift = Duration.ZERO;
            // hints move with the lag of the first input of their instant, so equal hints stay equal
            Map<Instant, Duration> hintShift = new java.util.HashMap<>();
            while (!pending.isEmpty()) {
                boolean progress = false;
                java.util.Set<String> blocked = new java.util.HashSet<>();
                for (java.util.Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
                    int i = it.next();
                    RoutingSimulator.Step step = steps.get(i);
                    if (time.now().isBefore(step.at().plus(drift))) {
                        break; // later inputs are not due either
                    }
                    String run = runOf(step.input());
                    if (blocked.contains(run) || observed.count(run) < needed.get(i)) {
                        blocked.add(run);
                        continue;
                    }
                    Instant now = time.now();
                    Duration lag = Duration.between(step.at(), now);
                    if (lag.compareTo(drift) > 0) {
                        drift = lag;
                    }
                    publish(step.input(), now, hintShift.computeIfAbsent(step.at(), x -> lag));
                    it.remove();
                    progress = true;
                }
                if (!progress) {
                    if (Instant.now().isAfter(deadline)) {
                        int i = pending.get(0);
                        String run = runOf(steps.get(i).input());
                        throw new IllegalStateException("timed out waiting for the application's records of " + run
                                + ": expected " + needed.get(i) + ", seen " + observed.count(run));
                    }
                    poll(Duration.ofMillis(5));
                }
            }
            for (Map.Entry<String, Integer> e : expected.entrySet()) {
                awaitCount(e.getKey(), e.getValue(), deadline);
            }
            poll(Duration.ofMillis(200));
        }

        private void awaitCount(String key, int count, Instant deadline) {
            while (observed.count(key) < count) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("timed out waiting for the application's records of " + key
                            + ": expected " + count + ", seen " + observed.count(key));
                }
                poll(Duration.ofMillis(5));
            }
        }

        private static String runOf(Object input) {
            if (input instanceof RunRequest r) {
                return r.runId();
            } else if (input instanceof RunFinished f) {
                return f.runId();
            } else if (input instanceof RunControl c) {
                return c.runId();
            } else if (input instanceof OfficeDispatchAck a) {
                return a.runId();
            } else if (input instanceof SessionEvent e) {
                io.recourse.avro.SessionEvent avro = AvroMapping.toAvro(e);
                return ((io.recourse.avro.TurnContext) ((org.apache.avro.generic.IndexedRecord) avro.getEvent()).get(
                        ((org.apache.avro.generic.IndexedRecord) avro.getEvent()).getSchema().getField("context").pos()))
                        .getRunId();
            }
            throw new IllegalArgumentException("unknown scripted input " + input);
        }

        private void poll(Duration d) {
            consumers.forEach((kind, c) -> {
                for (ConsumerRecord<String, ? extends SpecificRecord> r : c.poll(d.dividedBy(KINDS.size()))) {
                    observed.add(kind, r);
                }
            });
        }

        /** One scripted input now: JSON on the Office topics, Avro SessionEvents on the demo topic. */
        private void publish(Object input, Instant now, Duration drift) throws Exception {
            String ws = RoutingDemoScenario.WORKSPACE;
            if (input instanceof RunRequest r) {
                ObjectNode n = json.createObjectNode().put("type", "run_request").put("request_id", r.requestId())
                        .put("run_id", r.runId()).put("workspace_id", r.workspaceId())
                        .put("dynamic_profile_id", r.dynamicProfileId()).put("task_id", r.taskId())
                        .put("occurred_at", now.toString());
                send(topics.officeRunRequests().name(), ws, n);
            } else if (input instanceof RunFinished f) {
                send(topics.officeRunRequests().name(), ws, json.createObjectNode().put("type", "run_finished")
                        .put("run_id", f.runId()).put("workspace_id", ws).put("occurred_at", now.toString()));
            } else if (input instanceof RunControl c) {
                send(topics.officeRunControls().name(), ws, json.createObjectNode().put("run_id", c.runId())
                        .put("workspace_id", ws).put("action", c.action().wire())
                        .put("expected_attempt", c.expectedAttempt()).put("occurred_at", now.toString()));
            } else if (input instanceof OfficeDispatchAck a) {
                ObjectNode n = json.createObjectNode().put("command_id", a.commandId()).put("status", a.status().wire())
                        .put("reason", a.reason()).put("run_id", a.runId()).put("workspace_id", ws)
                        .put("session_id", a.sessionId()).put("occurred_at", now.toString());
                if (a.promptGeneration() != null) {
                    n.put("prompt_generation", a.promptGeneration());
                }
                send(topics.officeDispatchAcks().name(), ws, n);
            } else if (input instanceof SessionEvent e) {
                producer.send(new ProducerRecord<>(SESSION_EVENTS_TOPIC, ws, events.encode(AvroMapping.toAvro(shifted(e, now, drift)))))
                        .get();
            } else {
                throw new IllegalArgumentException("unknown scripted input " + input);
            }
        }

        /** The event at {@code now} (record time on the wall clock, as the broker would stamp it), hints shifted by {@code drift}. */
        private static SessionEvent shifted(SessionEvent e, Instant now, Duration drift) {
            if (e instanceof TurnStarted s) {
                return new TurnStarted(s.context(), s.promptDigest(), s.turnConfigDigest(), now);
            }
            if (e instanceof TurnProgressed p) {
                return new TurnProgressed(p.context(), p.assistantOutputSeen(), p.toolActivitySeen(), now);
            }
            if (e instanceof TurnOutcome o) {
                Classification c = o.classification();
                if (c != null) {
                    c = new Classification(c.code(), c.confidence(), c.ruleId(), c.catalogueVersion(), c.scope(),
                            c.retryAfter() == null ? null : c.retryAfter().plus(drift),
                            c.resetAt() == null ? null : c.resetAt().plus(drift), c.background());
                }
                return new TurnOutcome(o.context(), o.outcome(), o.launch(), o.stopReason(), o.assistantOutputSeen(),
                        o.toolActivitySeen(), o.replaySafe(), c, now, Instant.now());
            }
            return e;
        }

        private void send(String topic, String key, ObjectNode n) throws Exception {
            producer.send(new ProducerRecord<>(topic, key, n.toString().getBytes(StandardCharsets.UTF_8))).get();
        }

        @Override
        public void close() {
            producer.close();
            consumers.values().forEach(KafkaConsumer::close);
        }
    }

    // ------------------------------------------------------------------ report

    private static int report(PrintWriter out, RoutingSimulator sim, Instant origin, Observed observed) {
        // the timeline: every record in processing order (record time on the scaled clock)
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
        out.println("-- parked runs (each park, and when it was released)");
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

        // the check: per topic and key, the simulator's records (normalized) in order
        Map<String, List<String>> expected = new TreeMap<>();
        WorkspaceState before = WorkspaceState.empty(RoutingDemoScenario.WORKSPACE);
        Map<String, RouteConfig> cfg = Map.of(RoutingDemoScenario.PROFILE, RoutingDemoScenario.config());
        for (Decision d : sim.decisions()) {
            for (RoutingOutput o : RoutingRecords.of(d, before, cfg::get)) {
                expected.computeIfAbsent(o.kind() + " " + o.key(), x -> new ArrayList<>()).add(normalized(o.value()));
            }
            before = d.state();
        }
        Map<String, List<String>> actual = new TreeMap<>();
        KINDS.forEach(k -> observed.records.get(k).forEach(r ->
                actual.computeIfAbsent(k + " " + r.key(), x -> new ArrayList<>()).add(normalized(r.value()))));
        List<String> differences = new ArrayList<>();
        for (String key : union(expected, actual)) {
            List<String> e = expected.getOrDefault(key, List.of());
            List<String> a = actual.getOrDefault(key, List.of());
            for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
                String ei = i < e.size() ? e.get(i) : "(nothing)";
                String ai = i < a.size() ? a.get(i) : "(nothing)";
                if (!ei.equals(ai)) {
                    differences.add(key + " #" + i + ": expected " + ei + " but was " + ai);
                    break;
                }
            }
        }
        int records = actual.values().stream().mapToInt(List::size).sum();
        if (differences.isEmpty()) {
            out.printf("-- timeline as expected: %d records on 5 topics match the simulator's, run by run%n", records);
            out.flush();
            return 0;
        }
        out.printf("-- timeline DIFFERS from the scenario in %d places:%n", differences.size());
        differences.stream().limit(20).forEach(out::println);
        out.flush();
        return 1;
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

    /**
     * A record without its absolute instants, which depend on when the demo ran: a run state's retry
     * is kept as its exact delay ({@code retry_at − updated_at}), other instants as present or absent.
     */
    static String normalized(SpecificRecord v) {
        if (v == null) {
            return "tombstone";
        }
        if (v instanceof RouteCommand c) {
            return "command " + c.getCommandId() + " " + c.getAction() + " on=" + c.getExecutionProfileId() + " reason="
                    + c.getReason() + " code=" + c.getCode() + " attempt=" + c.getAttempt() + " session=" + c.getSessionId()
                    + " gen=" + c.getExpectedGeneration();
        }
        if (v instanceof RunState s) {
            return "state " + s.getStatus() + " attempt=" + s.getAttempt() + " on=" + s.getExecutionProfileId()
                    + (s.getRetryAt() == null ? "" : " retry_in=" + Duration.between(s.getUpdatedAt(), s.getRetryAt())
                    + " (" + s.getRetryOrdinal() + "/" + s.getMaxRetries() + ")")
                    + (s.getWakeAt() == null ? "" : " wake_at=set") + " code=" + s.getCode() + " reason=" + s.getReason();
        }
        if (v instanceof RouteAttempt a) {
            return "attempt #" + a.getSequence() + " " + a.getOutcome() + " on=" + a.getExecutionProfileId() + " code="
                    + a.getCode() + " confidence=" + a.getConfidence() + " phase=" + a.getPhase()
                    + (a.getResetAt() != null || a.getRetryAfter() != null ? " hint=set" : "")
                    + (a.getStartedAt() == null ? "" : " started") + (a.getFinishedAt() == null ? "" : " finished");
        }
        if (v instanceof ProviderHealth h) {
            return "health " + h.getState() + " code=" + h.getCode() + " step=" + h.getBackoffStep()
                    + (h.getRetryAt() == null ? "" : " retry_at=set");
        }
        if (v instanceof ParkedRun p) {
            return "park " + p.getStatus() + (p.getWakeAt() == null ? "" : " wake_at=set") + " reason=" + p.getReason() + " "
                    + p.getCandidates().stream().map(b -> b.getExecutionProfileId() + ":" + b.getReason() + ":" + b.getCode())
                    .toList();
        }
        return String.valueOf(v);
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
