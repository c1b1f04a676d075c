package io.recourse.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.demo.InteractiveScenarios;
import io.recourse.demo.OfficeTurns;
import io.recourse.demo.RoutingDemo;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.PollThread;
import io.recourse.routing.CandidateRef;
import io.recourse.routing.RouteAction;
import io.recourse.routing.RunStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The benchmark's scripted Office dispatcher (realistic workload, full topology), on its own thread:
 * reads {@code recourse.office.route-commands} and {@code recourse.office.run-state}
 * ({@code read_committed}); acks every dispatchable RouteCommand {@code dispatched} on
 * {@code recourse.office.dispatch-acks} ({@link RoutingDemo#dispatchedAckJson}) and publishes the
 * dispatched turn's frames ({@link OfficeTurns#frames}) on {@code recourse.agent-frames}, ending as
 * the workspace's {@link BenchOffice.OfficeScript} says for that candidate and attempt. It measures the
 * routing owner: RouteCommands and RunStates seen (its decisions) and, per failed turn, the time from
 * just before its terminal frame is sent to the first RouteCommand or RunState of that run that carries
 * a failure code (DESIGN §7.3–§7.4).
 */
final class BenchDispatcher implements AutoCloseable {

    /** RunState statuses that answer a failed turn (the owner decided what to do about it). */
    private static final Set<String> ANSWERS = Set.of(RunStatus.SHORT_RETRY.wire(), RunStatus.WAITING_FOR_COOLDOWN.wire(),
            RunStatus.WAITING_FOR_PROVIDER_CAPACITY.wire(), RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED.wire(),
            RunStatus.DECLINED.wire());

    /** A failed turn awaiting the owner's answer: when its terminal frame was sent, the attempt of the command it answered. */
    private record Failed(long nanos, int attempt) {
    }

    private final long seed;
    private final String commandsTopic;
    private final String statesTopic;
    private final String acksTopic;
    private final String framesTopic;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerde<RouteCommand> commandSerde = AvroSerde.of(RouteCommand.class);
    private final AvroSerde<RunState> stateSerde = AvroSerde.of(RunState.class);
    private final InteractiveScenarios.Frames samples = new InteractiveScenarios.Frames();
    private final Set<String> commandIds = new HashSet<>();
    private final Map<String, String> sessionOf = new HashMap<>();
    private final Map<String, Integer> sessionsOf = new HashMap<>();
    private final Map<String, Integer> generationOf = new HashMap<>();
    private final Map<String, Long> seqOf = new HashMap<>();
    private final Map<String, Integer> attemptsOf = new HashMap<>();
    /** Per run: nanoTime just before its latest failed turn's terminal frame was sent, until the owner answered it. */
    private final Map<String, Failed> failedAt = new HashMap<>();
    private final List<Double> latencies = new ArrayList<>();
    private final Map<String, Integer> actions = new TreeMap<>();
    private final Map<String, Integer> failedTurns = new TreeMap<>();
    private final Map<String, Set<String>> runsByStatus = new TreeMap<>();
    private final Set<String> completedTurnRuns = new HashSet<>();
    private long routeCommands;
    private long runStates;
    private long framesSent;
    private long lastDecisionNanos;
    private PollThread poller;

    BenchDispatcher(Map<String, Object> client, RecourseConfig config, long seed) {
        this.seed = seed;
        this.commandsTopic = config.topicName(RecourseConfig.TOPIC_OFFICE_ROUTE_COMMANDS);
        this.statesTopic = config.topicName(RecourseConfig.TOPIC_OFFICE_RUN_STATE);
        this.acksTopic = config.topicName(RecourseConfig.TOPIC_OFFICE_DISPATCH_ACKS);
        this.framesTopic = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        Map<String, Object> p = BenchSupport.producerProps(client);
        p.put("linger.ms", 0);
        this.producer = new KafkaProducer<>(p);
        Map<String, Object> c = new HashMap<>(client);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.consumer = new KafkaConsumer<>(c);
    }

    BenchDispatcher start() {
        List<TopicPartition> tps = new ArrayList<>();
        for (String t : List.of(commandsTopic, statesTopic)) {
            consumer.partitionsFor(t).forEach(i -> tps.add(new TopicPartition(t, i.partition())));
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        poller = PollThread.start("bench-office-dispatcher", consumer, Duration.ofMillis(20), this::handle);
        return this;
    }

    private void handle(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() == null) {
                continue;
            }
            long now = System.nanoTime();
            if (r.topic().equals(commandsTopic)) {
                RouteCommand c = commandSerde.deserialize(r.topic(), r.value());
                synchronized (this) {
                    routeCommands++;
                    lastDecisionNanos = now;
                    actions.merge(c.getAction(), 1, Integer::sum);
                    answered(c.getRunId(), c.getCode() != null, c.getAttempt(), false, now);
                }
                dispatch(c);
            } else {
                RunState s = stateSerde.deserialize(r.topic(), r.value());
                synchronized (this) {
                    runStates++;
                    lastDecisionNanos = now;
                    runsByStatus.computeIfAbsent(s.getStatus(), k -> new HashSet<>()).add(s.getRunId());
                    answered(s.getRunId(), s.getCode() != null && ANSWERS.contains(s.getStatus()), s.getAttempt(), true, now);
                }
            }
        }
    }

    /**
     * A RouteCommand with a later attempt, or a RunState of the same or a later attempt, that carries a
     * failure code answers the run's pending failed turn.
     */
    private void answered(String run, boolean forAFailure, int attempt, boolean state, long now) {
        Failed f = forAFailure ? failedAt.get(run) : null;
        if (f != null && (state ? attempt >= f.attempt() : attempt > f.attempt())) {
            failedAt.remove(run);
            latencies.add((now - f.nanos()) / 1e6);
        }
    }

    /** Acks {@code c} {@code dispatched} and publishes its turn as the workspace's script says; declines are only counted. */
    private void dispatch(RouteCommand c) {
        RouteAction action = RouteAction.fromWire(c.getAction());
        if (action == RouteAction.DECLINE || !commandIds.add(c.getCommandId())) {
            return;
        }
        String run = c.getRunId();
        String ws = c.getWorkspaceId();
        String session;
        if (action == RouteAction.RETRY_SAME_ROUTE && sessionOf.containsKey(run)) {
            session = sessionOf.get(run);
        } else {
            session = run + "-s" + sessionsOf.merge(run, 1, Integer::sum);
        }
        sessionOf.put(run, session);
        int generation = generationOf.merge(session, 1, Integer::sum);
        long seq = seqOf.getOrDefault(session, 1L);
        int candidate = candidateIndex(c.getExecutionProfileId());
        int attempt = attemptsOf.merge(run + "/" + candidate, 1, Integer::sum);
        OfficeTurns.End end = BenchOffice.OfficeScript.of(seed, ws).end(candidate, attempt);
        Instant now = Instant.now();
        send(acksTopic, ws, RoutingDemo.dispatchedAckJson(c.getCommandId(), run, ws, session, generation, now));
        String origin = action == RouteAction.RETRY_SAME_ROUTE ? "retry"
                : action == RouteAction.FRESH_SESSION_CONTINUATION ? "continuation" : "scheduled";
        CandidateRef ref = RoutingDemoScenario.CANDIDATES.get(candidate);
        List<ObjectNode> frames = OfficeTurns.frames(samples, run, ws, session, generation, seq, origin, c.getCommandId(),
                ref, end, now, BenchOffice.OFFICE_QUOTA_RESET_SECONDS);
        for (int i = 0; i < frames.size(); i++) {
            if (i == frames.size() - 1) {
                synchronized (this) {
                    if (end == OfficeTurns.End.SUCCESS) {
                        completedTurnRuns.add(run);
                    } else {
                        failedTurns.merge(end.name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
                        failedAt.put(run, new Failed(System.nanoTime(), c.getAttempt()));
                    }
                }
            }
            send(framesTopic, session + "/" + generation, frames.get(i));
        }
        seqOf.put(session, seq + frames.size());
        producer.flush();
    }

    private static int candidateIndex(String executionProfileId) {
        for (int i = 0; i < RoutingDemoScenario.CANDIDATES.size(); i++) {
            if (RoutingDemoScenario.CANDIDATES.get(i).executionProfileId().equals(executionProfileId)) {
                return i;
            }
        }
        throw new IllegalStateException("unknown candidate " + executionProfileId);
    }

    private void send(String topic, String key, ObjectNode value) {
        producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                value.toString().getBytes(StandardCharsets.UTF_8)));
        if (topic.equals(framesTopic)) {
            synchronized (this) {
                framesSent++;
            }
        }
    }

    /**
     * Waits until each of {@code runs} ran a completed turn or is {@code blocked_provider_action_required}
     * or {@code declined}, or until no RouteCommand or RunState arrived for {@code quiet} (counted from this
     * call at the latest), at most {@code timeout}.
     *
     * @return whether every run settled
     */
    boolean awaitSettled(Set<String> runs, Duration quiet, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (System.nanoTime() < deadline && poller.failure() == null) {
            synchronized (this) {
                Set<String> settled = new HashSet<>(completedTurnRuns);
                settled.addAll(runsByStatus.getOrDefault(RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED.wire(), Set.of()));
                settled.addAll(runsByStatus.getOrDefault(RunStatus.DECLINED.wire(), Set.of()));
                if (settled.containsAll(runs)) {
                    return true;
                }
                if (System.nanoTime() - Math.max(start, lastDecisionNanos) > quiet.toNanos()) {
                    return false;
                }
            }
            Thread.sleep(50); // polling the dispatcher thread's bookkeeping
        }
        return false;
    }

    /** What was measured, with {@code runs} requested since {@code startNanos}. */
    synchronized OfficeResult result(int runs, long startNanos, boolean settled) {
        double seconds = lastDecisionNanos == 0 ? Double.NaN : (lastDecisionNanos - startNanos) / 1e9;
        Map<String, Integer> statuses = new TreeMap<>();
        runsByStatus.forEach((k, v) -> statuses.put(k, v.size()));
        Latencies l = new Latencies(latencies.stream().mapToDouble(Double::doubleValue).toArray());
        return new OfficeResult(runs, routeCommands, runStates, seconds, (routeCommands + runStates) / seconds,
                Map.copyOf(actions), Map.copyOf(failedTurns), statuses, completedTurnRuns.size(), framesSent,
                l.percentile(50), l.percentile(99), l.count(), settled);
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
        }
        consumer.close();
        producer.close();
    }
}
