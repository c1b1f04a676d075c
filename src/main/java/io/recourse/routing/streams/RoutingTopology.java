package io.recourse.routing.streams;

import io.micrometer.core.instrument.Counter;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.SessionEvent;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RoutingSettings;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The unattended routing (Office) owner's sub-topology (DESIGN §7, §8), attached to the Recourse
 * topology by {@link #attach}:
 * <pre>
 *  recourse.route-config ─ validate ─┬─ rejected → recourse.dlq (reason in the headers)
 *                                    └─ valid, normalized → recourse.route-config.validated (compacted)
 *  recourse.route-config.validated → GlobalKTable (store recourse-routing-route-config)
 *
 *  session events (dynamic profiles, by workspace, from the evidence stage) ───────────┐
 *  recourse.office.run-requests  ─ parse ─┬─ rejected → DLQ                             │
 *                                         └─ repartition RUN_REQUESTS_BY_WORKSPACE ─────┤
 *  recourse.office.run-controls  ─ parse ─┬─ rejected → DLQ                             │ merge ─ routing owner
 *                                         └─ repartition RUN_CONTROLS_BY_WORKSPACE ─────┤  (runs, workspaces,
 *  recourse.office.dispatch-acks ─ parse ─┬─ rejected → DLQ                             │   timers stores;
 *                                         └─ repartition OFFICE_ACKS_BY_WORKSPACE ──────┘   wall-clock punctuator)
 *        ─ split ─→ route-commands │ run-state │ route-attempts │ provider-health │ parked-runs
 * </pre>
 * Every processor, store and repartition topic is named by a constant here; the changelogs are
 * {@code <application.id>-<store>-changelog}. The owner's sources are repartition topics with
 * {@code recourse.owner.partitions} partitions and the String key serde (co-partitioned).
 */
public final class RoutingTopology {

    // --- the owner's repartition topics (DESIGN §2, §4), co-partitioned ---
    /** SessionEvents of dynamic profiles keyed by workspace_id, read by the routing owner. */
    public static final String SESSION_EVENTS_BY_WORKSPACE = "recourse-session-events-by-workspace";
    /** RunRequests re-keyed onto the routing owner's partitions. */
    public static final String RUN_REQUESTS_BY_WORKSPACE = "recourse-run-requests-by-workspace";
    /** RunControls re-keyed onto the routing owner's partitions. */
    public static final String RUN_CONTROLS_BY_WORKSPACE = "recourse-run-controls-by-workspace";
    /** OfficeDispatchAcks re-keyed onto the routing owner's partitions. */
    public static final String OFFICE_ACKS_BY_WORKSPACE = "recourse-office-dispatch-acks-by-workspace";

    // --- stores ---
    /** The routing owner's runs, {@code <percent-encoded workspace>/<run_id>} → Avro {@code RoutingRunValue} (changelogged). */
    public static final String RUNS_STORE = "recourse-routing-runs";
    /** Health and cooldowns per workspace, {@code workspace_id} → Avro {@code RoutingWorkspaceValue} (changelogged). */
    public static final String WORKSPACES_STORE = "recourse-routing-workspaces";
    /** The time index, {@code TimerEntry.key()} bytes → the entry's {@code workspace_id} (changelogged). */
    public static final String TIMERS_STORE = "recourse-routing-timers";
    /** The GlobalKTable store of validated route configuration, {@code dynamic_profile_id} → {@code RouteConfigValue}. */
    public static final String ROUTE_CONFIG_STORE = "recourse-routing-route-config";

    // --- route configuration ---
    public static final String ROUTE_CONFIG_SOURCE = "recourse-route-config-source";
    public static final String ROUTE_CONFIG_VALIDATE = "recourse-route-config-validate";
    public static final String ROUTE_CONFIG_SPLIT = "recourse-route-config-split-";
    public static final String ROUTE_CONFIG_DEAD_LETTER = "recourse-route-config-dead-letter";
    public static final String ROUTE_CONFIG_DLQ_SINK = "recourse-route-config-dlq-sink";
    public static final String ROUTE_CONFIG_VALUE = "recourse-route-config-valid";
    public static final String ROUTE_CONFIG_VALIDATED_SINK = "recourse-route-config-validated-sink";
    public static final String ROUTE_CONFIG_VALIDATED_SOURCE = "recourse-route-config-validated-source";
    /** DLQ reason of a route configuration document that does not validate (the message lists the field errors). */
    public static final String INVALID_ROUTE_CONFIG = "invalid_route_config";
    /** DLQ reason: a null value on the route configuration topic while tombstones are rejected (DESIGN §7.1). */
    public static final String ROUTE_CONFIG_TOMBSTONE_REJECTED = "route_config_tombstone_rejected";


    // --- Office inputs ---
    public static final String RUN_REQUESTS_SOURCE = "recourse-run-requests-source";
    public static final String RUN_REQUESTS_PARSE = "recourse-run-requests-parse";
    public static final String RUN_REQUESTS_SPLIT = "recourse-run-requests-split-";
    public static final String RUN_REQUESTS_DEAD_LETTER = "recourse-run-requests-dead-letter";
    public static final String RUN_REQUESTS_DLQ_SINK = "recourse-run-requests-dlq-sink";
    public static final String RUN_REQUESTS_ADMITTED = "recourse-run-requests-admitted";
    public static final String RUN_REQUESTS_TO_INPUT = "recourse-routing-run-requests";
    public static final String RUN_CONTROLS_SOURCE = "recourse-run-controls-source";
    public static final String RUN_CONTROLS_PARSE = "recourse-run-controls-parse";
    public static final String RUN_CONTROLS_SPLIT = "recourse-run-controls-split-";
    public static final String RUN_CONTROLS_DEAD_LETTER = "recourse-run-controls-dead-letter";
    public static final String RUN_CONTROLS_DLQ_SINK = "recourse-run-controls-dlq-sink";
    public static final String RUN_CONTROLS_ADMITTED = "recourse-run-controls-admitted";
    public static final String RUN_CONTROLS_TO_INPUT = "recourse-routing-run-controls";
    public static final String OFFICE_ACKS_SOURCE = "recourse-office-dispatch-acks-source";
    public static final String OFFICE_ACKS_PARSE = "recourse-office-dispatch-acks-parse";
    public static final String OFFICE_ACKS_SPLIT = "recourse-office-dispatch-acks-split-";
    public static final String OFFICE_ACKS_DEAD_LETTER = "recourse-office-dispatch-acks-dead-letter";
    public static final String OFFICE_ACKS_DLQ_SINK = "recourse-office-dispatch-acks-dlq-sink";
    public static final String OFFICE_ACKS_ADMITTED = "recourse-office-dispatch-acks-admitted";
    public static final String OFFICE_ACKS_TO_INPUT = "recourse-routing-office-dispatch-acks";
    /** Branch names of the input splits (appended to the split's name). */
    public static final String REJECTED_BRANCH = "rejected";
    public static final String ADMITTED_BRANCH = "admitted";
    /** The DLQ message of a routing input whose record key is not its body's id. */
    static final String KEY_MISMATCH_MESSAGE = "record key is not the body's id";

    // --- the owner ---
    public static final String SESSION_EVENTS_TO_INPUT = "recourse-routing-session-events";
    public static final String MERGE_RUN_REQUESTS = "recourse-routing-merge-run-requests";
    public static final String MERGE_RUN_CONTROLS = "recourse-routing-merge-run-controls";
    public static final String MERGE_OFFICE_ACKS = "recourse-routing-merge-office-dispatch-acks";
    public static final String ROUTING_PROCESSOR = "recourse-routing";
    public static final String OUTPUT_SPLIT = "recourse-routing-output-";
    public static final String ROUTE_COMMANDS_SINK = "recourse-office-route-commands-sink";
    public static final String RUN_STATE_SINK = "recourse-office-run-state-sink";
    public static final String ROUTE_ATTEMPTS_SINK = "recourse-office-route-attempts-sink";
    public static final String PROVIDER_HEALTH_SINK = "recourse-office-provider-health-sink";
    public static final String PARKED_RUNS_SINK = "recourse-office-parked-runs-sink";

    /**
     * What the owner is built with besides the configuration.
     *
     * @param settings    the router's numbers (DESIGN §7.3, §8)
     * @param jitter      the jitter source (production: {@link JitterSource#hashing()})
     * @param recordClock maps a record timestamp onto the injected clock before any comparison
     *                    (identity in production; the demo's {@code --time-scale})
     * @param meters      where the processor records policy decisions, stale evidence and timer lag
     *                    (DESIGN §10); the global registry with the three-argument constructor
     */
    public record Options(RoutingSettings settings, JitterSource jitter, UnaryOperator<Instant> recordClock,
                          RecourseMeters meters) {

        public Options {
            Objects.requireNonNull(settings);
            Objects.requireNonNull(jitter);
            Objects.requireNonNull(recordClock);
            Objects.requireNonNull(meters);
        }

        /** Options recording metrics on the global registry. */
        public Options(RoutingSettings settings, JitterSource jitter, UnaryOperator<Instant> recordClock) {
            this(settings, jitter, recordClock, RecourseMeters.global());
        }
    }

    private RoutingTopology() {
    }

    /** The router's settings for {@code config}: DESIGN defaults with the configured dispatch timeout and staleness bound. */
    public static RoutingSettings settings(RecourseConfig config) {
        RoutingSettings d = RoutingSettings.DEFAULTS;
        return new RoutingSettings(config.dispatchTimeout(), config.staleness(), d.maxRouteAttempts(), d.cooldownGrace(),
                d.shortHintMax(), d.retryJitter(), d.ladderJitter(), d.ladder(), d.maxDelay(), d.runRetention());
    }

    /** The production options: configured settings, hashing jitter, record times as they are. */
    public static Options options(RecourseConfig config) {
        return new Options(settings(config), JitterSource.hashing(), UnaryOperator.identity());
    }

    /**
     * Routes SessionEvents keyed by {@code workspace_id} through the owner's repartition topic
     * {@link #SESSION_EVENTS_BY_WORKSPACE}, as {@link #attach} expects them. For
     * test topologies; the evidence stage does the same.
     */
    public static KStream<String, SessionEvent> byWorkspace(KStream<String, SessionEvent> keyedByWorkspace,
                                                            RecourseConfig config) {
        return keyedByWorkspace.repartition(Repartitioned.<String, SessionEvent>as(SESSION_EVENTS_BY_WORKSPACE)
                .withKeySerde(Serdes.String())
                .withValueSerde(AvroSerde.of(SessionEvent.class))
                .withNumberOfPartitions(config.ownerPartitions()));
    }

    /** {@link #attach(StreamsBuilder, KStream, Topics, RecourseConfig, Options)} with the production options. */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsByWorkspace,
                              Topics topics, RecourseConfig config) {
        attach(builder, sessionEventsByWorkspace, topics, config, options(config));
    }

    /**
     * Wires the route configuration stage and the routing owner into {@code builder}.
     *
     * @param sessionEventsByWorkspace SessionEvents of dynamic profiles keyed by {@code workspace_id},
     *                                 read from {@link #SESSION_EVENTS_BY_WORKSPACE}
     */
    public static void attach(StreamsBuilder builder, KStream<String, SessionEvent> sessionEventsByWorkspace,
                              Topics topics, RecourseConfig config, Options options) {
        RouteConfigStage.attach(builder, topics, config.routeConfigTombstonesAllowed(), options.meters());

        int partitions = config.ownerPartitions();
        KStream<String, Object> events = sessionEventsByWorkspace.mapValues(
                e -> (Object) AvroMapping.fromAvro(e), Named.as(SESSION_EVENTS_TO_INPUT));
        KStream<String, Object> requests = OfficeInputs.admitted(builder, topics, topics.officeRunRequests().name(),
                RUN_REQUESTS_SOURCE, RUN_REQUESTS_PARSE, RUN_REQUESTS_SPLIT, RUN_REQUESTS_DEAD_LETTER, RUN_REQUESTS_DLQ_SINK,
                RUN_REQUESTS_ADMITTED, RUN_REQUESTS_BY_WORKSPACE, RUN_REQUESTS_TO_INPUT, partitions,
                RoutingJson::runRequestOrFinished);
        KStream<String, Object> controls = OfficeInputs.admitted(builder, topics, topics.officeRunControls().name(),
                RUN_CONTROLS_SOURCE, RUN_CONTROLS_PARSE, RUN_CONTROLS_SPLIT, RUN_CONTROLS_DEAD_LETTER, RUN_CONTROLS_DLQ_SINK,
                RUN_CONTROLS_ADMITTED, RUN_CONTROLS_BY_WORKSPACE, RUN_CONTROLS_TO_INPUT, partitions,
                RoutingJson::runControl);
        KStream<String, Object> acks = OfficeInputs.admitted(builder, topics, topics.officeDispatchAcks().name(),
                OFFICE_ACKS_SOURCE, OFFICE_ACKS_PARSE, OFFICE_ACKS_SPLIT, OFFICE_ACKS_DEAD_LETTER, OFFICE_ACKS_DLQ_SINK,
                OFFICE_ACKS_ADMITTED, OFFICE_ACKS_BY_WORKSPACE, OFFICE_ACKS_TO_INPUT, partitions,
                RoutingJson::dispatchAck);

        builder.addStateStore(runsStore());
        builder.addStateStore(workspacesStore());
        builder.addStateStore(timersStore());

        Map<String, KStream<String, RoutingOutput>> outputs = events
                .merge(requests, Named.as(MERGE_RUN_REQUESTS))
                .merge(controls, Named.as(MERGE_RUN_CONTROLS))
                .merge(acks, Named.as(MERGE_OFFICE_ACKS))
                .process(() -> new RoutingProcessor(options, config.punctuationInterval()), Named.as(ROUTING_PROCESSOR),
                        RUNS_STORE, WORKSPACES_STORE, TIMERS_STORE)
                .split(Named.as(OUTPUT_SPLIT))
                .branch((k, o) -> o.kind() == RoutingOutput.Kind.ROUTE_COMMAND, Branched.as("route-command"))
                .branch((k, o) -> o.kind() == RoutingOutput.Kind.RUN_STATE, Branched.as("run-state"))
                .branch((k, o) -> o.kind() == RoutingOutput.Kind.ROUTE_ATTEMPT, Branched.as("route-attempt"))
                .branch((k, o) -> o.kind() == RoutingOutput.Kind.PROVIDER_HEALTH, Branched.as("provider-health"))
                .defaultBranch(Branched.as("parked-run"));
        sink(outputs.get(OUTPUT_SPLIT + "route-command"), topics.officeRouteCommands(), ROUTE_COMMANDS_SINK);
        sink(outputs.get(OUTPUT_SPLIT + "run-state"), topics.officeRunState(), RUN_STATE_SINK);
        sink(outputs.get(OUTPUT_SPLIT + "route-attempt"), topics.officeRouteAttempts(), ROUTE_ATTEMPTS_SINK);
        sink(outputs.get(OUTPUT_SPLIT + "provider-health"), topics.officeProviderHealth(), PROVIDER_HEALTH_SINK);
        sink(outputs.get(OUTPUT_SPLIT + "parked-run"), topics.officeParkedRuns(), PARKED_RUNS_SINK);
    }


    @SuppressWarnings("unchecked")
    private static <V extends org.apache.avro.specific.SpecificRecord> void sink(KStream<String, RoutingOutput> stream,
                                                                                 Topic<String, V> topic, String name) {
        stream.mapValues(o -> (V) o.value(), Named.as(name + "-value"))
                .to(topic.name(), Produced.with(topic.keySerde(), topic.valueSerde()).withName(name));
    }

    /** The changelogged runs store. */
    static StoreBuilder<KeyValueStore<String, RoutingRunValue>> runsStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RUNS_STORE), Serdes.String(),
                AvroSerde.of(RoutingRunValue.class)).withLoggingEnabled(Map.of());
    }

    /** The changelogged workspaces store. */
    static StoreBuilder<KeyValueStore<String, RoutingWorkspaceValue>> workspacesStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(WORKSPACES_STORE), Serdes.String(),
                AvroSerde.of(RoutingWorkspaceValue.class)).withLoggingEnabled(Map.of());
    }

    /** The changelogged time index; RocksDB orders keys as unsigned bytes, the order of {@code TimerEntry.key()}. */
    static StoreBuilder<KeyValueStore<Bytes, String>> timersStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TIMERS_STORE), Serdes.Bytes(), Serdes.String())
                .withLoggingEnabled(Map.of());
    }
}
