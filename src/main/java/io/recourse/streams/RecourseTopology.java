package io.recourse.streams;

import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.runtime.RecourseConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The Recourse topology as a pure function of the configuration (STYLE.md "A pure topology
 * builder"): tests call {@link #build} directly; starting and stopping belong to the runner.
 *
 * <p>Stages so far: <b>ingress</b> (DESIGN §3) — the frames topic source, the ingress processor,
 * and a split that sends rejected frames to {@code recourse.dlq} with their original bytes and
 * error headers, and admitted {@link Frame}s on to the evidence stage (wired in a later step).
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

    /** The topology, admitting frames through the ingress stage's {@link FrameParser} with {@code recourse.frame.max.bytes}. */
    public static Topology build(RecourseConfig config) {
        return build(config, FrameAdmission.parsing(new FrameParser(config.frameMaxBytes())));
    }

    /**
     * The topology for {@code config}, admitting frames through {@code admission}.
     *
     * @throws org.apache.kafka.streams.errors.TopologyException when a resource is left unnamed
     */
    public static Topology build(RecourseConfig config, FrameAdmission admission) {
        Topics topics = Topics.from(config);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(builderProperties(config))));

        Map<String, KStream<String, Admission>> branches = builder
                .stream(topics.agentFrames().name(), topics.agentFrames().consumed(FRAMES_SOURCE))
                .process(() -> new IngressProcessor(admission), Named.as(INGRESS_PROCESSOR))
                .split(Named.as(INGRESS_SPLIT))
                .branch((key, admitted) -> admitted instanceof Admission.Rejected, Branched.as(INGRESS_REJECTED_BRANCH))
                .defaultBranch(Branched.as(INGRESS_ADMITTED_BRANCH));

        branches.get(INGRESS_SPLIT + INGRESS_REJECTED_BRANCH)
                .map((key, rejected) -> {
                    Admission.Rejected r = (Admission.Rejected) rejected;
                    return KeyValue.pair(r.originalKey(), r.originalValue());
                }, Named.as(DLQ_RECORD))
                .to(topics.dlq().name(), topics.dlq().produced(DLQ_SINK));

        @SuppressWarnings("unused") // the evidence stage attaches here (issue 3, second step)
        KStream<String, Frame> frames = branches.get(INGRESS_SPLIT + INGRESS_ADMITTED_BRANCH)
                .mapValues(admitted -> ((Admission.Admitted) admitted).frame(), Named.as(FRAMES_ADMITTED));

        return builder.build();
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
