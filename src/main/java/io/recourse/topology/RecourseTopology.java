package io.recourse.topology;

import io.recourse.classification.TurnClassifier;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.EvidenceCounters;
import io.recourse.evidence.streams.EvidenceTopology;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.streams.Admission;
import io.recourse.ingress.streams.DeadLetters;
import io.recourse.ingress.streams.FrameAdmission;
import io.recourse.ingress.streams.IngressProcessor;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.streams.RoutingTopology;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The Recourse topology as a pure function of the configuration (STYLE.md "A pure topology
 * builder"): tests call {@link #build} directly; starting and stopping belong to the runner.
 *
 * <p>Stages so far: <b>ingress</b> (DESIGN §3) — the frames topic source, the ingress processor
 * ({@link FrameParser} through {@link FrameAdmission#parsing}), and a split that sends rejected
 * frames to {@code recourse.dlq} with their original bytes and error headers, and admitted
 * {@link Frame}s on to <b>evidence</b> ({@link EvidenceTopology}, DESIGN §4), whose SessionEvent
 * stream is repartitioned by {@code session_id} ({@link #SESSION_EVENTS_BY_SESSION}) for the
 * interactive owner and, for {@code profile_kind=dynamic}, by {@code workspace_id}
 * ({@link #SESSION_EVENTS_BY_WORKSPACE}) for the routing owner, each with
 * {@code recourse.owner.partitions} partitions.
 *
 * <p>Every processor, store and internal topic has a constant name here, and the builder runs
 * with {@code ensure.explicit.internal.resource.naming=true}, so {@code Topology.describe()} is
 * stable and no changelog is ever renamed by a topology change (DESIGN §2).
 */
public final class RecourseTopology {

    // --- ingress processors (DESIGN §3) ---
    public static final String FRAMES_SOURCE = "recourse-frames-source";
    public static final String INGRESS_PROCESSOR = "recourse-ingress";
    public static final String INGRESS_SPLIT = "recourse-ingress-split-";
    public static final String INGRESS_REJECTED_BRANCH = "rejected";
    public static final String INGRESS_ADMITTED_BRANCH = "admitted";
    public static final String DLQ_RECORD = "recourse-ingress-dead-letter";
    public static final String DLQ_SINK = "recourse-dlq-sink";
    public static final String FRAMES_ADMITTED = "recourse-frames-admitted";

    // --- session events to the owners (DESIGN §4) ---
    public static final String SESSION_EVENTS_DYNAMIC = "recourse-session-events-dynamic";
    public static final String SESSION_EVENTS_WORKSPACE_KEY = "recourse-session-events-workspace-key";

    // --- owner repartition topics (DESIGN §2, §4), named now so the startup checks know them ---
    /** SessionEvents keyed by session_id, read by the interactive owner. */
    public static final String SESSION_EVENTS_BY_SESSION = "recourse-session-events-by-session";
    /** SessionControls re-keyed onto the interactive owner's partitions. */
    public static final String SESSION_CONTROLS_BY_SESSION = "recourse-session-controls-by-session";
    /** KanbanDispatchAcks re-keyed onto the interactive owner's partitions. */
    public static final String KANBAN_ACKS_BY_SESSION = "recourse-kanban-dispatch-acks-by-session";
    /** SessionEvents of dynamic profiles keyed by workspace_id, read by the routing owner. */
    public static final String SESSION_EVENTS_BY_WORKSPACE = "recourse-session-events-by-workspace";
    /** RunRequests re-keyed onto the routing owner's partitions. */
    public static final String RUN_REQUESTS_BY_WORKSPACE = "recourse-run-requests-by-workspace";
    /** RunControls re-keyed onto the routing owner's partitions. */
    public static final String RUN_CONTROLS_BY_WORKSPACE = "recourse-run-controls-by-workspace";
    /** OfficeDispatchAcks re-keyed onto the routing owner's partitions. */
    public static final String OFFICE_ACKS_BY_WORKSPACE = "recourse-office-dispatch-acks-by-workspace";

    /** Each owner's repartition topics (names as given to {@code Repartitioned.as}); must be co-partitioned. */
    public static final Map<String, List<String>> OWNER_SOURCES = Map.of(
            "interactive", List.of(SESSION_EVENTS_BY_SESSION, SESSION_CONTROLS_BY_SESSION, KANBAN_ACKS_BY_SESSION),
            "routing", List.of(SESSION_EVENTS_BY_WORKSPACE, RUN_REQUESTS_BY_WORKSPACE, RUN_CONTROLS_BY_WORKSPACE,
                    OFFICE_ACKS_BY_WORKSPACE));

    private RecourseTopology() {
    }

    /** The topology with the ingress stage's {@link FrameParser}, the default classifier and the global meter registry. */
    public static Topology build(RecourseConfig config) {
        return build(config, RecourseMeters.global());
    }

    /**
     * The default topology whose processors record their metrics (DESIGN §10) in {@code meters}:
     * the runner passes the meters of its Prometheus registry.
     */
    public static Topology build(RecourseConfig config, RecourseMeters meters) {
        return build(config, FrameAdmission.parsing(new FrameParser(config.frameMaxBytes())),
                EvidenceTopology.defaultClassifier(), meters, UnaryOperator.identity());
    }

    /** The topology admitting frames through {@code admission}, with the default classifier. */
    public static Topology build(RecourseConfig config, FrameAdmission admission) {
        return build(config, admission, EvidenceTopology.defaultClassifier(), EvidenceCounters.global());
    }

    /**
     * The topology for {@code config}.
     *
     * @param admission  the ingress validation
     * @param classifier the catalogue's classifier (DESIGN §5)
     * @param counters   the evidence counters; every other meter goes to their registry
     * @throws org.apache.kafka.streams.errors.TopologyException when a resource is left unnamed
     */
    public static Topology build(RecourseConfig config, FrameAdmission admission, TurnClassifier classifier,
                                 EvidenceCounters counters) {
        return build(config, admission, classifier, new RecourseMeters(counters), UnaryOperator.identity());
    }

    /**
     * The default topology whose owners map record timestamps onto the injected clock with
     * {@code recordClock} (DESIGN §8: the demo's {@code --time-scale} passes {@code ScaledTime::scaled}
     * together with the {@code ScaledTime} given to Kafka Streams).
     */
    public static Topology build(RecourseConfig config, UnaryOperator<Instant> recordClock) {
        return build(config, FrameAdmission.parsing(new FrameParser(config.frameMaxBytes())),
                EvidenceTopology.defaultClassifier(), RecourseMeters.global(), recordClock);
    }

    /**
     * The topology for {@code config}.
     *
     * @param admission   the ingress validation
     * @param classifier  the catalogue's classifier (DESIGN §5)
     * @param counters    the evidence counters; every other meter goes to their registry
     * @param recordClock maps a record timestamp (broker wall-clock time) onto the injected clock
     * @throws org.apache.kafka.streams.errors.TopologyException when a resource is left unnamed
     */
    public static Topology build(RecourseConfig config, FrameAdmission admission, TurnClassifier classifier,
                                 EvidenceCounters counters, UnaryOperator<Instant> recordClock) {
        return build(config, admission, classifier, new RecourseMeters(counters), recordClock);
    }

    /**
     * The default topology with the routing owner's retry jitter given (DESIGN §8: the routing demo
     * passes {@code JitterSource.none()} so its short-retry delays are exact) and record timestamps
     * mapped onto the injected clock with {@code recordClock}.
     */
    public static Topology build(RecourseConfig config, UnaryOperator<Instant> recordClock,
                                 io.recourse.routing.JitterSource routingJitter) {
        return build(config, FrameAdmission.parsing(new FrameParser(config.frameMaxBytes())),
                EvidenceTopology.defaultClassifier(), RecourseMeters.global(), recordClock, routingJitter);
    }

    /**
     * The topology for {@code config}.
     *
     * @param admission   the ingress validation
     * @param classifier  the catalogue's classifier (DESIGN §5)
     * @param meters      where every processor records its metrics (DESIGN §10)
     * @param recordClock maps a record timestamp (broker wall-clock time) onto the injected clock
     * @throws org.apache.kafka.streams.errors.TopologyException when a resource is left unnamed
     */
    public static Topology build(RecourseConfig config, FrameAdmission admission, TurnClassifier classifier,
                                 RecourseMeters meters, UnaryOperator<Instant> recordClock) {
        return build(config, admission, classifier, meters, recordClock, io.recourse.routing.JitterSource.hashing());
    }

    private static Topology build(RecourseConfig config, FrameAdmission admission, TurnClassifier classifier,
                                  RecourseMeters meters, UnaryOperator<Instant> recordClock,
                                  io.recourse.routing.JitterSource routingJitter) {
        Topics topics = Topics.from(config);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(builderProperties(config))));

        // (1) ingress
        Map<String, KStream<String, Admission>> branches = builder
                .stream(topics.agentFrames().name(), topics.agentFrames().consumed(FRAMES_SOURCE))
                .process(() -> new IngressProcessor(admission, DeadLetters.maxRecordBytes(topics.dlq())), Named.as(INGRESS_PROCESSOR))
                .split(Named.as(INGRESS_SPLIT))
                .branch((key, admitted) -> admitted instanceof Admission.Rejected, Branched.as(INGRESS_REJECTED_BRANCH))
                .defaultBranch(Branched.as(INGRESS_ADMITTED_BRANCH));

        branches.get(INGRESS_SPLIT + INGRESS_REJECTED_BRANCH)
                .map((key, rejected) -> {
                    Admission.Rejected r = (Admission.Rejected) rejected;
                    return KeyValue.pair(r.originalKey(), r.originalValue());
                }, Named.as(DLQ_RECORD))
                .to(topics.dlq().name(), topics.dlq().produced(DLQ_SINK));

        KStream<String, Frame> frames = branches.get(INGRESS_SPLIT + INGRESS_ADMITTED_BRANCH)
                .mapValues(admitted -> ((Admission.Admitted) admitted).frame(), Named.as(FRAMES_ADMITTED));

        // (2) evidence: SessionEvents keyed by session_id
        KStream<String, io.recourse.avro.SessionEvent> events =
                EvidenceTopology.attach(builder, frames, topics, config, classifier, meters);

        // (3) the owners' copies, co-partitioned with their other sources (DESIGN §2)
        AvroSerde<io.recourse.avro.SessionEvent> eventSerde = AvroSerde.of(io.recourse.avro.SessionEvent.class);
        KStream<String, io.recourse.avro.SessionEvent> sessionEventsBySession = events.repartition(
                Repartitioned.<String, io.recourse.avro.SessionEvent>as(SESSION_EVENTS_BY_SESSION)
                        .withKeySerde(Serdes.String()).withValueSerde(eventSerde)
                        .withNumberOfPartitions(config.ownerPartitions()));
        KStream<String, io.recourse.avro.SessionEvent> sessionEventsByWorkspace = events
                .filter((sessionId, e) -> "dynamic".equals(context(e).getProfileKind()) && context(e).getWorkspaceId() != null,
                        Named.as(SESSION_EVENTS_DYNAMIC))
                .selectKey((sessionId, e) -> context(e).getWorkspaceId(), Named.as(SESSION_EVENTS_WORKSPACE_KEY))
                .repartition(Repartitioned.<String, io.recourse.avro.SessionEvent>as(SESSION_EVENTS_BY_WORKSPACE)
                        .withKeySerde(Serdes.String()).withValueSerde(eventSerde)
                        .withNumberOfPartitions(config.ownerPartitions()));

        // (4) ===== owners attach here =====
        InteractiveTopology.attach(builder, sessionEventsBySession, topics, config,
                new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.hashed()),
                recordClock, meters); // DESIGN §6
        RoutingTopology.attach(builder, sessionEventsByWorkspace, topics, config,
                new RoutingTopology.Options(RoutingTopology.settings(config), routingJitter,
                        recordClock, meters)); // DESIGN §7
        // ===== end of owners =====

        return builder.build();
    }

    /** The turn context of any SessionEvent branch. */
    static io.recourse.avro.TurnContext context(io.recourse.avro.SessionEvent e) {
        return AvroMapping.contextOf(e);
    }

    /** The Streams properties the builder itself needs: only what shapes the topology. */
    private static Properties builderProperties(RecourseConfig config) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElse("unused:9092"));
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        return p;
    }
}
