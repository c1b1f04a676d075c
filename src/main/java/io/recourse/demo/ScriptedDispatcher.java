package io.recourse.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.config.RecourseConfig;
import io.recourse.demo.InteractiveScenarios.Observed;
import io.recourse.demo.InteractiveScenarios.Scenario;
import io.recourse.demo.InteractiveScenarios.Trigger;
import io.recourse.demo.InteractiveScenarios.Turn;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.streams.InteractiveAvro;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.PollThread;
import io.recourse.runtime.ScaledTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The demo's built-in Kanban dispatcher (DESIGN §6.3), scripted per {@link Scenario}: on its own
 * thread it reads {@code recourse.kanban.retry-commands} and {@code recourse.kanban.recovery-state}
 * with {@code read_committed}; for each RetryCommand of a scripted session it acks {@code dispatched}
 * on {@code recourse.kanban.dispatch-acks} (or {@code failed}/{@code superseded} when
 * {@code expected_generation} is no longer the session's latest) and publishes the new generation's
 * frames on {@code recourse.agent-frames} — {@code session/prompt} with {@code command_id},
 * {@code prompt_origin=retry}, {@code retry_of_generation} — ending as the scenario scripts that
 * attempt. Every RecoveryState and RetryCommand of a scripted session is recorded in its
 * {@link Observed}; {@link Trigger}s fire on the first {@code scheduled} state. Frame
 * {@code occurred_at} values are stamped from the injected (scaled) clock. Sessions it does not
 * script are ignored (their commands end {@code manual}/{@code dispatch_unconfirmed}).
 */
public final class ScriptedDispatcher implements AutoCloseable {

    private final ScaledTime time;
    private final Map<String, Scenario> scenarios;
    private final Map<String, Observed> observed = new LinkedHashMap<>();
    private final Map<String, Integer> latestGeneration = new HashMap<>();
    private final Map<String, Long> nextSeq = new HashMap<>();
    private final Set<String> triggered = new HashSet<>();
    private final Set<String> commandIds = new HashSet<>();
    private final InteractiveScenarios.Frames frames = new InteractiveScenarios.Frames();
    private final String framesTopic;
    private final String acksTopic;
    private final String commandsTopic;
    private final String statesTopic;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerde<io.recourse.avro.RetryCommand> commandSerde = AvroSerde.of(io.recourse.avro.RetryCommand.class);
    private final AvroSerde<io.recourse.avro.RecoveryState> stateSerde = AvroSerde.of(io.recourse.avro.RecoveryState.class);
    private volatile boolean restartRequested;
    private PollThread poller;

    ScriptedDispatcher(String bootstrap, RecourseConfig config, ScaledTime time, List<Scenario> scenarios) {
        this.time = time;
        this.scenarios = InteractiveScenarios.bySession(scenarios);
        scenarios.forEach(s -> observed.put(s.sessionId(), new Observed()));
        this.framesTopic = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        this.acksTopic = config.topicName(RecourseConfig.TOPIC_KANBAN_DISPATCH_ACKS);
        this.commandsTopic = config.topicName(RecourseConfig.TOPIC_KANBAN_RETRY_COMMANDS);
        this.statesTopic = config.topicName(RecourseConfig.TOPIC_KANBAN_RECOVERY_STATE);
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                new ByteArraySerializer(), new ByteArraySerializer());
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(commandsTopic, statesTopic)) {
            for (PartitionInfo p : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Starts the polling thread; then {@link #begin} each scenario. */
    ScriptedDispatcher start() {
        poller = PollThread.start("recourse-demo-dispatcher", consumer, Duration.ofMillis(50), this::handle);
        return this;
    }

    /** Publishes the user's first turn of {@code scenario} (generation 1). */
    synchronized void begin(Scenario scenario) {
        Instant at = time.now();
        observed.get(scenario.sessionId()).startedAt = at;
        publishTurn(scenario, 1, at, scenario.turn(0), null);
    }

    /** What was seen per session (stable once {@link #close()} returned). */
    Map<String, Observed> observed() {
        return observed;
    }

    /** True once a {@link Trigger#RESTART_WHEN_SCHEDULED} session was scheduled and every other trigger has played out. */
    boolean restartRequested() {
        return restartRequested;
    }

    /** True when every scripted session reached a terminal status (DESIGN §6.3). */
    synchronized boolean allSettled() {
        return observed.values().stream().allMatch(o -> o.status() != null && InteractiveScenarios.terminal(o.status()));
    }

    /** The error that stopped the polling thread, or {@code null}. */
    RuntimeException failure() {
        return poller == null ? null : poller.failure();
    }

    private void handle(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() == null) {
                continue;
            }
            if (r.topic().equals(commandsTopic)) {
                onCommand(InteractiveAvro.fromAvro(commandSerde.deserialize(r.topic(), r.value())));
            } else {
                onState(InteractiveAvro.fromAvro(stateSerde.deserialize(r.topic(), r.value())));
            }
        }
        maybeRequestRestart();
    }

    private synchronized void onCommand(RetryCommand c) {
        Scenario scenario = scenarios.get(c.sessionId());
        if (scenario == null) {
            return;
        }
        Observed o = observed.get(c.sessionId());
        o.commands.add(c);
        if (!commandIds.add(c.commandId())) {
            o.notes.add("duplicate command " + c.commandId() + " not dispatched again");
            return;
        }
        int latest = latestGeneration.getOrDefault(c.sessionId(), 0);
        if (c.expectedGeneration() != latest) {
            ack(c, "failed", "superseded", null);
            return;
        }
        int generation = latest + 1;
        ack(c, "dispatched", null, generation);
        publishTurn(scenario, generation, time.now(), scenario.turn(c.attempt()), c);
    }

    private synchronized void onState(RecoveryState s) {
        Scenario scenario = scenarios.get(s.sessionId());
        if (scenario == null) {
            return;
        }
        observed.get(s.sessionId()).states.add(s);
        if (s.status() == RecoveryStatus.SCHEDULED && triggered.add(s.sessionId())
                && scenario.trigger() == Trigger.NEW_PROMPT_WHEN_SCHEDULED) {
            int generation = latestGeneration.getOrDefault(s.sessionId(), 0) + 1;
            observed.get(s.sessionId()).notes.add("user sent a new prompt (generation " + generation + ") during the countdown");
            publishTurn(scenario, generation, time.now(), Turn.COMPLETED, null);
        }
    }

    /** Restart once the restart session is scheduled and every new-prompt session has settled (so no countdown races the restart). */
    private synchronized void maybeRequestRestart() {
        if (restartRequested) {
            return;
        }
        boolean waiting = false;
        boolean ready = false;
        for (Scenario s : scenarios.values()) {
            Observed o = observed.get(s.sessionId());
            if (s.trigger() == Trigger.RESTART_WHEN_SCHEDULED) {
                ready = o.status() == RecoveryStatus.SCHEDULED;
            } else if (s.trigger() == Trigger.NEW_PROMPT_WHEN_SCHEDULED) {
                waiting |= o.status() == null || !InteractiveScenarios.terminal(o.status());
            }
        }
        restartRequested = ready && !waiting;
    }

    private void publishTurn(Scenario scenario, int generation, Instant at, Turn turn, RetryCommand command) {
        String session = scenario.sessionId();
        long seq = nextSeq.getOrDefault(session, 1L);
        List<ObjectNode> turnFrames = frames.turn(scenario, generation, seq, at, turn, command);
        nextSeq.put(session, seq + turnFrames.size());
        latestGeneration.merge(session, generation, Math::max);
        Instant rateLimitedAt = null;
        java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> terminal = null;
        for (ObjectNode f : turnFrames) {
            if (f.path("payload").path("status").asInt() == 429) {
                rateLimitedAt = Instant.parse(f.get("occurred_at").asText());
            }
            terminal = producer.send(new ProducerRecord<>(framesTopic, bytes(session + "/" + generation), bytes(f.toString())));
        }
        producer.flush();
        Observed o = observed.get(session);
        try { // the frames topic is LogAppendTime: the ack's timestamp is the turn's recorded_at
            o.recordedAt.put(generation, time.scaled(Instant.ofEpochMilli(terminal.get().timestamp())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing a turn", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a frame was not written: " + e.getCause(), e.getCause());
        }
        if (rateLimitedAt != null) {
            Instant terminalOccurred = Instant.parse(turnFrames.get(turnFrames.size() - 1).get("occurred_at").asText());
            o.hintWait.put(generation, Duration.between(terminalOccurred, rateLimitedAt.plusSeconds(scenario.hintSeconds())));
        }
    }

    private void ack(RetryCommand c, String status, String reason, Integer generation) {
        ObjectNode ack = InteractiveScenarios.dispatchAckJson(c.commandId(), status, reason, c.sessionId(), generation, time.now());
        producer.send(new ProducerRecord<>(acksTopic, bytes(c.sessionId()), bytes(ack.toString())));
        producer.flush();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Stops the thread and closes the clients. */
    @Override
    public void close() {
        if (poller != null) {
            poller.close();
        }
        consumer.close();
        producer.close();
    }
}
