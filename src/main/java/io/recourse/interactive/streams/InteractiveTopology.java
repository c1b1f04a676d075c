package io.recourse.interactive.streams;

import io.recourse.avro.KanbanDispatchAckValue;
import io.recourse.avro.SessionControlValue;
import io.recourse.avro.SessionEvent;
import io.recourse.avro.SessionStateValue;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.streams.KeyedJsonCheck;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.SessionControl;
import io.recourse.kit.Admissions;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.Topics;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The interactive (Kanban) owner's sub-topology (DESIGN §6, §8), attached to the Recourse
 * topology by {@link #attach}:
 * <pre>
 *  session events (by session, from the evidence stage) ─────────────────────────────┐
 *  recourse.session-controls ─ parse ─┬─ rejected → recourse.dlq                      │
 *                                     └─ admitted ─ repartition SESSION_CONTROLS ─────┤ merge ─ interactive processor
 *  recourse.kanban.dispatch-acks ─ parse ─┬─ rejected → recourse.dlq                  │   (sessions store, timers store,
 *                                         └─ admitted ─ repartition KANBAN_ACKS ──────┘    wall-clock punctuator)
 *        ─ split ─┬─ retry command  → recourse.kanban.retry-commands
 *                 └─ recovery state → recourse.kanban.recovery-state (tombstone on expiry)
 * </pre>
 * Every processor, store and repartition topic is named by a constant here, so the changelogs
 * {@code <application.id>-recourse-interactive-sessions-changelog} and
 * {@code <application.id>-recourse-interactive-timers-changelog} keep their names across topology
 * changes. All three sources of the processor are repartition topics with
 * {@code recourse.owner.partitions} partitions and the String key serde (co-partitioned).
 */
public final class InteractiveTopology {

    // --- the owner's repartition topics (DESIGN §2, §4), co-partitioned ---
    /** SessionEvents keyed by session_id, read by the interactive owner. */
    public static final String SESSION_EVENTS_BY_SESSION = "recourse-session-events-by-session";
    /** SessionControls re-keyed onto the interactive owner's partitions. */
    public static final String SESSION_CONTROLS_BY_SESSION = "recourse-session-controls-by-session";
    /** KanbanDispatchAcks re-keyed onto the interactive owner's partitions. */
    public static final String KANBAN_ACKS_BY_SESSION = "recourse-kanban-dispatch-acks-by-session";

    // --- stores (changelogged) ---
    /** Session state, {@code session_id} → Avro {@code SessionStateValue}. */
    public static final String SESSIONS_STORE = "recourse-interactive-sessions";
    /** Time index, {@code TimerEntry.key()} bytes (instant · kind · session) → empty value. */
    public static final String TIMERS_STORE = "recourse-interactive-timers";

    // --- session events ---
    public static final String SESSION_EVENTS_TO_INPUT = "recourse-interactive-session-events";

    // --- session controls ---
    public static final String CONTROLS_SOURCE = "recourse-session-controls-source";
    public static final String CONTROLS_PARSER = "recourse-session-controls-parse";
    public static final String CONTROLS_SPLIT = "recourse-session-controls-split-";
    public static final String CONTROLS_DEAD_LETTER = "recourse-session-controls-dead-letter";
    public static final String CONTROLS_DLQ_SINK = "recourse-session-controls-dlq-sink";
    public static final String CONTROLS_ADMITTED = "recourse-session-controls-admitted";
    public static final String CONTROLS_TO_INPUT = "recourse-interactive-session-controls";

    // --- dispatch acks ---
    public static final String ACKS_SOURCE = "recourse-kanban-dispatch-acks-source";
    public static final String ACKS_PARSER = "recourse-kanban-dispatch-acks-parse";
    public static final String ACKS_SPLIT = "recourse-kanban-dispatch-acks-split-";
    public static final String ACKS_DEAD_LETTER = "recourse-kanban-dispatch-acks-dead-letter";
    public static final String ACKS_DLQ_SINK = "recourse-kanban-dispatch-acks-dlq-sink";
    public static final String ACKS_ADMITTED = "recourse-kanban-dispatch-acks-admitted";
    public static final String ACKS_TO_INPUT = "recourse-interactive-kanban-dispatch-acks";

    /** Branch names of the input splits (appended to the split's name). */
    public static final String REJECTED_BRANCH = "rejected";
    public static final String ADMITTED_BRANCH = "admitted";

    // --- the owner ---
    public static final String MERGE_CONTROLS = "recourse-interactive-merge-controls";
    public static final String MERGE_ACKS = "recourse-interactive-merge-acks";
    public static final String INTERACTIVE_PROCESSOR = "recourse-interactive";
    public static final String OUTPUT_SPLIT = "recourse-interactive-output-";
    public static final String COMMAND_BRANCH = "retry-command";
    public static final String STATE_BRANCH = "recovery-state";
    public static final String RETRY_COMMAND_VALUE = "recourse-interactive-retry-command";
    public static final String RECOVERY_STATE_VALUE = "recourse-interactive-recovery-state";
    public static final String RETRY_COMMANDS_SINK = "recourse-kanban-retry-commands-sink";
    public static final String RECOVERY_STATE_SINK = "recourse-kanban-recovery-state-sink";

    private InteractiveTopology() {
    }

    /**
     * The policy configuration for {@code config}: DESIGN defaults with {@code recourse.staleness.ms},
     * {@code recourse.dispatch.timeout.ms} and {@code recourse.outcome.timeout.ms} applied.
     */
    public static InteractiveConfig interactiveConfig(RecourseConfig config) {
        InteractiveConfig d = InteractiveConfig.defaults();
        return new InteractiveConfig(d.nominalDelays(), d.jitterRatio(), d.rateLimitHintMax(), config.staleness(),
                config.dispatchTimeout(), d.sessionTtl(), config.outcomeTimeout());
    }

    /**
     * Re-keys nothing, but routes session events that are already keyed by {@code session_id}
     * through the owner's repartition topic {@link #SESSION_EVENTS_BY_SESSION}
     * ({@code recourse.owner.partitions} partitions, String keys, Avro values), as {@link #attach}
     * expects them. For the evidence stage (and test topologies).
     */
    public static KStream<String, SessionEvent> bySession(KStream<String, SessionEvent> keyedBySession, RecourseConfig config) {
        return keyedBySession.repartition(Repartitioned.<String, SessionEvent>as(SESSION_EVENTS_BY_SESSION)
                .withKeySerde(Serdes.String())
                .withValueSerde(AvroSerde.of(SessionEvent.class))
                .withNumberOfPartitions(config.ownerPartitions()));
    }

    /** {@link #attach(StreamsBuilder, KStream, Topics, RecourseConfig, InteractiveRecoveryPolicy)} with the configured policy. */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsBySession,
                              Topics topics, RecourseConfig config) {
        attach(builder, sessionEventsBySession, topics, config,
                new InteractiveRecoveryPolicy(interactiveConfig(config), JitterSource.hashed()));
    }

    /**
     * Wires the interactive owner into {@code builder}.
     *
     * @param sessionEventsBySession SessionEvents keyed by {@code session_id}, read from the
     *                               repartition topic {@link #SESSION_EVENTS_BY_SESSION}
     *                               (see {@link #bySession}); every event of a session must arrive
     *                               here, whatever its profile kind (the policy ignores dynamic ones)
     * @param policy                 the pure policy (tests inject configuration and jitter)
     */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsBySession,
                              Topics topics, RecourseConfig config, InteractiveRecoveryPolicy policy) {
        attach(builder, sessionEventsBySession, topics, config, policy, UnaryOperator.identity());
    }

    /**
     * {@link #attach(StreamsBuilder, KStream, Topics, RecourseConfig, InteractiveRecoveryPolicy)} with
     * record timestamps mapped onto the injected clock by {@code recordClock} before any comparison
     * with it (DESIGN §8; the identity in production, {@code ScaledTime::scaled} under the demo's
     * {@code --time-scale}).
     */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsBySession,
                              Topics topics, RecourseConfig config, InteractiveRecoveryPolicy policy,
                              UnaryOperator<Instant> recordClock) {
        attach(builder, sessionEventsBySession, topics, config, policy, recordClock, RecourseMeters.global());
    }

    /**
     * {@link #attach(StreamsBuilder, KStream, Topics, RecourseConfig, InteractiveRecoveryPolicy, UnaryOperator)}
     * with the processor's metrics (policy decisions, stale evidence, timer lag; DESIGN §10) in {@code meters}.
     */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsBySession,
                              Topics topics, RecourseConfig config, InteractiveRecoveryPolicy policy,
                              UnaryOperator<Instant> recordClock, RecourseMeters meters) {
        int partitions = config.ownerPartitions();

        KStream<String, InteractiveInput> events = sessionEventsBySession.mapValues(
                e -> InteractiveInput.of(AvroMapping.fromAvro(e)), Named.as(SESSION_EVENTS_TO_INPUT));

        KStream<String, InteractiveInput> controls = admitted(builder, topics, topics.sessionControls().name(),
                CONTROLS_SOURCE, CONTROLS_PARSER, CONTROLS_SPLIT, CONTROLS_DEAD_LETTER, CONTROLS_DLQ_SINK, CONTROLS_ADMITTED,
                new JsonInputProcessorSpec<SessionControl, SessionControlValue>(
                        InteractiveJson::control, SessionControl::sessionId, InteractiveAvro::toAvro))
                .repartition(Repartitioned.<String, SessionControlValue>as(SESSION_CONTROLS_BY_SESSION)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(AvroSerde.of(SessionControlValue.class))
                        .withNumberOfPartitions(partitions))
                .mapValues(v -> (InteractiveInput) InteractiveAvro.fromAvro(v), Named.as(CONTROLS_TO_INPUT));

        KStream<String, InteractiveInput> acks = admitted(builder, topics, topics.kanbanDispatchAcks().name(),
                ACKS_SOURCE, ACKS_PARSER, ACKS_SPLIT, ACKS_DEAD_LETTER, ACKS_DLQ_SINK, ACKS_ADMITTED,
                new JsonInputProcessorSpec<InteractiveDispatchAck, KanbanDispatchAckValue>(
                        InteractiveJson::ack, InteractiveDispatchAck::sessionId, InteractiveAvro::toAvro))
                .repartition(Repartitioned.<String, KanbanDispatchAckValue>as(KANBAN_ACKS_BY_SESSION)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(AvroSerde.of(KanbanDispatchAckValue.class))
                        .withNumberOfPartitions(partitions))
                .mapValues(v -> (InteractiveInput) InteractiveAvro.fromAvro(v), Named.as(ACKS_TO_INPUT));

        builder.addStateStore(sessionsStore());
        builder.addStateStore(timersStore());

        Map<String, KStream<String, InteractiveOutput>> outputs = events
                .merge(controls, Named.as(MERGE_CONTROLS))
                .merge(acks, Named.as(MERGE_ACKS))
                .process(() -> new InteractiveProcessor(policy, config.punctuationInterval(), recordClock, meters,
                        config.interactiveStartSettle()),
                        Named.as(INTERACTIVE_PROCESSOR), SESSIONS_STORE, TIMERS_STORE)
                .split(Named.as(OUTPUT_SPLIT))
                .branch((key, out) -> out instanceof InteractiveOutput.Command, Branched.as(COMMAND_BRANCH))
                .defaultBranch(Branched.as(STATE_BRANCH));

        outputs.get(OUTPUT_SPLIT + COMMAND_BRANCH)
                .mapValues(out -> ((InteractiveOutput.Command) out).command(), Named.as(RETRY_COMMAND_VALUE))
                .to(topics.kanbanRetryCommands().name(), topics.kanbanRetryCommands().produced(RETRY_COMMANDS_SINK));
        outputs.get(OUTPUT_SPLIT + STATE_BRANCH)
                .mapValues(out -> ((InteractiveOutput.State) out).state(), Named.as(RECOVERY_STATE_VALUE))
                .to(topics.kanbanRecoveryState().name(), topics.kanbanRecoveryState().produced(RECOVERY_STATE_SINK));
    }

    /** The changelogged session store. */
    static StoreBuilder<KeyValueStore<String, SessionStateValue>> sessionsStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SESSIONS_STORE), Serdes.String(),
                        AvroSerde.of(SessionStateValue.class))
                .withLoggingEnabled(Map.of());
    }

    /** The changelogged time index; RocksDB orders its keys as unsigned bytes, the order of {@code TimerEntry.key()}. */
    static StoreBuilder<KeyValueStore<Bytes, byte[]>> timersStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TIMERS_STORE), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingEnabled(Map.of());
    }

    /** How one JSON input topic is parsed, keyed and turned into Avro. */
    private record JsonInputProcessorSpec<D, A>(
            Function<byte[], D> parse, Function<D, String> sessionId, Function<D, A> toAvro) {

        /** The admission check: the body's {@code session_id} is the key. */
        KeyedJsonCheck<A> check() {
            return new KeyedJsonCheck<>(record -> {
                D value = parse.apply(record.value());
                return new KeyedJsonCheck.Parsed<>(sessionId.apply(value), toAvro.apply(value));
            }, "record key is not the body's session_id");
        }
    }

    /** Source → parse → split: rejected records to the DLQ, admitted Avro values (keyed by session) returned. */
    private static <D, A> KStream<String, A> admitted(StreamsBuilder builder, Topics topics, String topic,
            String sourceName, String parserName, String splitName, String deadLetterName, String dlqSinkName,
            String admittedName, JsonInputProcessorSpec<D, A> spec) {
        return Admissions.split(builder
                .stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(sourceName))
                .process(Admissions.processor(spec.check(), DeadLetters.maxRecordBytes(topics.dlq())), Named.as(parserName)),
                topics.dlq(), new Admissions.Names(splitName, REJECTED_BRANCH, ADMITTED_BRANCH, deadLetterName, dlqSinkName,
                        admittedName));
    }
}
