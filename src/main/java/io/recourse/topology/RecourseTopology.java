package io.recourse.topology;

import io.recourse.classification.TurnClassifier;
import io.recourse.classification.streams.ClassificationTopology;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.EvidenceTopology;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.streams.FrameAdmission;
import io.recourse.ingress.streams.FrameCheck;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.Admissions;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.Topics;
import io.recourse.routing.streams.RoutingTopology;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
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
 * {@link Frame}s on to <b>evidence</b> ({@link EvidenceTopology}, DESIGN §4), whose closed turns
 * <b>classification</b> ({@link ClassificationTopology}, DESIGN §5) classifies; the SessionEvent
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
    public static final String SESSION_EVENTS_BY_SESSION = InteractiveTopology.SESSION_EVENTS_BY_SESSION;
    /** SessionControls re-keyed onto the interactive owner's partitions. */
    public static final String SESSION_CONTROLS_BY_SESSION = InteractiveTopology.SESSION_CONTROLS_BY_SESSION;
    /** KanbanDispatchAcks re-keyed onto the interactive owner's partitions. */
    public static final String KANBAN_ACKS_BY_SESSION = InteractiveTopology.KANBAN_ACKS_BY_SESSION;
    /** SessionEvents of dynamic profiles keyed by workspace_id, read by the routing owner. */
    public static final String SESSION_EVENTS_BY_WORKSPACE = RoutingTopology.SESSION_EVENTS_BY_WORKSPACE;
    /** RunRequests re-keyed onto the routing owner's partitions. */
    public static final String RUN_REQUESTS_BY_WORKSPACE = RoutingTopology.RUN_REQUESTS_BY_WORKSPACE;
    /** RunControls re-keyed onto the routing owner's partitions. */
    public static final String RUN_CONTROLS_BY_WORKSPACE = RoutingTopology.RUN_CONTROLS_BY_WORKSPACE;
    /** OfficeDispatchAcks re-keyed onto the routing owner's partitions. */
    public static final String OFFICE_ACKS_BY_WORKSPACE = RoutingTopology.OFFICE_ACKS_BY_WORKSPACE;

    /** Each owner's repartition topics (names as given to {@code Repartitioned.as}); must be co-partitioned. */
    public static final Map<String, List<String>> OWNER_SOURCES = Map.of(
            "interactive", List.of(SESSION_EVENTS_BY_SESSION, SESSION_CONTROLS_BY_SESSION, KANBAN_ACKS_BY_SESSION),
            "routing", List.of(SESSION_EVENTS_BY_WORKSPACE, RUN_REQUESTS_BY_WORKSPACE, RUN_CONTROLS_BY_WORKSPACE,
                    OFFICE_ACKS_BY_WORKSPACE));

    private RecourseTopology() {
    }

    /**
     * What a caller chooses when building the topology; everything else comes from the configuration.
     * {@link #with(RecourseMeters)} gives production's choices for all but the meters, which every
     * caller names (the runner passes its Prometheus registry's).
     *
     * @param admission     the ingress validation, or {@code null} for the configured
     *                      {@link FrameParser} ({@code recourse.frame.max.bytes})
     * @param classifier    the catalogue's classifier (DESIGN §5)
     * @param meters        where every processor records its metrics (DESIGN §10)
     * @param recordClock   maps a record timestamp (broker wall-clock time) onto the injected clock
     *                      (DESIGN §8: the demo's {@code --time-scale} passes {@code ScaledTime::scaled}
     *                      together with the {@code ScaledTime} given to Kafka Streams)
     * @param routingJitter the routing owner's retry jitter (DESIGN §8: the routing demo passes
     *                      {@code JitterSource.none()} so its short-retry delays are exact)
     */
    public record Options(FrameAdmission admission, TurnClassifier classifier, RecourseMeters meters,
                          UnaryOperator<Instant> recordClock, io.recourse.routing.JitterSource routingJitter) {

        public Options {
            Objects.requireNonNull(classifier, "classifier");
            Objects.requireNonNull(meters, "meters");
            Objects.requireNonNull(recordClock, "recordClock");
            Objects.requireNonNull(routingJitter, "routingJitter");
        }

        /** Production's options recording into {@code meters}: the configured parser, the default catalogue, identity clock, hashed jitter. */
        public static Options with(RecourseMeters meters) {
            return new Options(null, ClassificationTopology.defaultClassifier(), meters, UnaryOperator.identity(),
                    io.recourse.routing.JitterSource.hashing());
        }

        public Options withAdmission(FrameAdmission admission) {
            return new Options(admission, classifier, meters, recordClock, routingJitter);
        }

        public Options withClassifier(TurnClassifier classifier) {
            return new Options(admission, classifier, meters, recordClock, routingJitter);
        }

        public Options withRecordClock(UnaryOperator<Instant> recordClock) {
            return new Options(admission, classifier, meters, recordClock, routingJitter);
        }

        public Options withRoutingJitter(io.recourse.routing.JitterSource routingJitter) {
            return new Options(admission, classifier, meters, recordClock, routingJitter);
        }
    }

    /** Every rule id of {@code catalogue}: its rules' and its two fallbacks'. */
    static java.util.Set<String> ruleIds(io.recourse.classification.Catalogue catalogue) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        catalogue.rules().forEach(r -> ids.add(r.id()));
        ids.add(catalogue.preStartFallback().ruleId());
        ids.add(catalogue.postStartFallback().ruleId());
        return ids;
    }

    /**
     * The topology for {@code config}: the one entry point (production, demos and tests).
     *
     * @throws org.apache.kafka.streams.errors.TopologyException when a resource is left unnamed
     */
    public static Topology build(RecourseConfig config, Options options) {
        FrameAdmission admission = options.admission() != null ? options.admission()
                : FrameAdmission.parsing(new FrameParser(config.frameMaxBytes()));
        TurnClassifier classifier = options.classifier();
        RecourseMeters meters = options.meters();
        if (classifier instanceof io.recourse.classification.Classifier c) {
            meters.allowRuleIds(ruleIds(c.catalogue())); // a decision's rule_id: the catalogue's closed set (DESIGN §10)
        }
        UnaryOperator<Instant> recordClock = options.recordClock();
        io.recourse.routing.JitterSource routingJitter = options.routingJitter();
        Topics topics = Topics.from(config);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(builderProperties(config))));

        // (1) ingress
        KStream<String, Frame> frames = Admissions.split(topics.agentFrames().stream(builder, FRAMES_SOURCE)
                .process(Admissions.processor(new FrameCheck(admission), DeadLetters.maxRecordBytes(topics.dlq())),
                        Named.as(INGRESS_PROCESSOR)),
                topics.dlq(), new Admissions.Names(INGRESS_SPLIT, INGRESS_REJECTED_BRANCH, INGRESS_ADMITTED_BRANCH,
                        DLQ_RECORD, DLQ_SINK, FRAMES_ADMITTED));

        // (2) evidence, then (3) classification: SessionEvents keyed by session_id
        KStream<String, io.recourse.avro.SessionEvent> events = ClassificationTopology.attach(
                EvidenceTopology.attach(builder, frames, EvidenceTopology.settings(config), meters), topics, classifier, meters);

        // (4) the owners' copies, co-partitioned with their other sources (DESIGN §2)
        KStream<String, io.recourse.avro.SessionEvent> sessionEventsBySession = InteractiveTopology.bySession(events, config);
        KStream<String, io.recourse.avro.SessionEvent> sessionEventsByWorkspace = RoutingTopology.byWorkspace(events
                .filter((sessionId, e) -> "dynamic".equals(context(e).getProfileKind()) && context(e).getWorkspaceId() != null,
                        Named.as(SESSION_EVENTS_DYNAMIC))
                .selectKey((sessionId, e) -> context(e).getWorkspaceId(), Named.as(SESSION_EVENTS_WORKSPACE_KEY)), config);

        // (5) ===== owners attach here =====
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
