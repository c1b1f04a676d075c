package io.recourse.demo;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topics;
import io.recourse.routing.RouteAction;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RunStatus;
import io.recourse.routing.streams.RoutingOutput;
import io.recourse.routing.streams.RoutingTopology;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.apache.kafka.streams.state.QueryableStoreTypes;

/** The routing demo's scripted dispatcher: acks route commands and publishes each dispatched turn's frames. */
final class RoutingDispatcher implements AutoCloseable {

    /** What the dispatcher makes a dispatched turn end with. */
    enum TurnEnd { CAPACITY, QUOTA, AUTH, SUCCESS }

    private final RecourseRunner runner;
    private final Topics topics;
    private final ScaledTime time;
    private final int runs;
    private final KafkaProducer<String, byte[]> producer;
    private final Map<String, RoutingOutput.Kind> kinds = new java.util.HashMap<>();
    private final Map<String, Deserializer<? extends SpecificRecord>> values = new java.util.HashMap<>();
    private final KafkaConsumer<String, byte[]> outputs;
    final RoutingObserved observed = new RoutingObserved();
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
    /**
     * Each burst's first failure is the owner run's (run-01), as in the simulator's script: the other
     * runs' failing turns are held until the owner's {@code short_retry} RunState of that burst is
     * read, so which run probes the candidate does not depend on which frames partition's task the
     * evidence stage happened to process first.
     */
    private final String ownerRun;
    private boolean ownerProbing;
    private final List<RouteCommand> heldLaunches = new ArrayList<>();
    private final List<String> heldBurstTwo = new ArrayList<>();
    private Instant burstTwoAt;
    Instant quotaReset;

    RoutingDispatcher(RecourseRunner runner, RecourseConfig config, ScaledTime time, int runs) {
        this.runner = runner;
        this.topics = Topics.from(config);
        this.time = time;
        this.runs = runs;
        this.ownerRun = RoutingDemoScenario.runIds(runs).get(0);
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
            send(topics.officeRunRequests().name(), ws, RoutingDemo.runRequestJson(id, ws, time.now()));
        }
        Instant settled = null;
        while (true) {
            poll(Duration.ofMillis(10));
            if (phase == 1 && burstTwoAt == null && burstOneDone.size() == runs) {
                burstTwoAt = time.now().plusSeconds(30);
            }
            if (phase == 1 && burstTwoAt != null && !time.now().isBefore(burstTwoAt)) {
                phase = 2; // burst 2: a new user turn on every run's session hits capacity, the owner's first
                ownerProbing = false;
                for (String id : RoutingDemoScenario.runIds(runs)) {
                    if (id.equals(ownerRun)) {
                        publishTurn(id, sessionOf.get(id), "user", null, 0, TurnEnd.CAPACITY);
                    } else {
                        heldBurstTwo.add(id);
                    }
                }
            }
            if (ownerProbing && !heldBurstTwo.isEmpty()) {
                for (String id : heldBurstTwo) {
                    publishTurn(id, sessionOf.get(id), "user", null, 0, TurnEnd.CAPACITY);
                }
                heldBurstTwo.clear();
            }
            if (ownerProbing && !heldLaunches.isEmpty()) {
                List<RouteCommand> launches = List.copyOf(heldLaunches);
                heldLaunches.clear();
                for (RouteCommand c : launches) {
                    dispatch(c);
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
            if (v instanceof RunState s && ownerRun.equals(s.getRunId())
                    && RunStatus.SHORT_RETRY.wire().equals(s.getStatus())) {
                ownerProbing = true;
            }
            if (v instanceof RouteCommand c) {
                if (phase == 1 && !ownerProbing && !ownerRun.equals(c.getRunId())
                        && RouteAction.fromWire(c.getAction()) == RouteAction.LAUNCH) {
                    heldLaunches.add(c); // dispatched once the owner's failure has been decided
                } else {
                    dispatch(c);
                }
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
        ObjectNode ack = RoutingDemo.dispatchedAckJson(c.getCommandId(), run, c.getWorkspaceId(), session, generation, time.now());
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

    static int candidateIndex(String executionProfileId) {
        for (int i = 0; i < RoutingDemoScenario.CANDIDATES.size(); i++) {
            if (RoutingDemoScenario.CANDIDATES.get(i).executionProfileId().equals(executionProfileId)) {
                return i;
            }
        }
        throw new IllegalStateException("unknown candidate " + executionProfileId);
    }

    /** The next generation of {@code session}: the {@code session/prompt} request, then {@code end}'s frames ({@link OfficeTurns}). */
    private void publishTurn(String run, String session, String origin, RouteCommand c, int candidateIndex,
                             TurnEnd end) throws Exception {
        sessionOf.put(run, session);
        int generation = generationOf.merge(session, 1, Integer::sum);
        long seq = seqOf.getOrDefault(session, 1L);
        Instant at = time.now();
        List<ObjectNode> turn = OfficeTurns.frames(frames, run, RoutingDemoScenario.WORKSPACE, session, generation, seq,
                origin, c == null ? null : c.getCommandId(), RoutingDemoScenario.CANDIDATES.get(candidateIndex),
                OfficeTurns.End.valueOf(end.name()), at, 60);
        if (end == TurnEnd.QUOTA && quotaReset == null) {
            quotaReset = at.plusMillis(1).plusSeconds(60); // the HTTP error frame's occurred_at + resets_in_seconds
        }
        java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> terminal = null;
        for (ObjectNode f : turn) {
            terminal = producer.send(new ProducerRecord<>(topics.agentFrames().name(), session + "/" + generation,
                    f.toString().getBytes(StandardCharsets.UTF_8)));
        }
        seqOf.put(session, seq + turn.size());
        producer.flush();
        if (c != null) { // the frames topic is LogAppendTime: the ack's timestamp is the turn's recorded_at
            observed.turnRecordedAt.put(c.getCommandId(), time.scaled(Instant.ofEpochMilli(terminal.get().timestamp())));
        }
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
