package io.recourse.kit;

import static io.recourse.config.RecourseConfig.*;

import io.recourse.avro.Classification;
import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RecoveryState;
import io.recourse.avro.RetryCommand;
import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunState;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.config.RecourseConfig;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The registry of DESIGN §2 topics: one {@link Topic} per topic with its configured name, serdes
 * and creation configs. Ingress values are JSON (raw bytes here, parsed by the ingress stage);
 * everything Recourse writes is Avro in single-object encoding ({@link AvroSerde}).
 *
 * <p>{@code agentFrames} and {@code dlq} use byte-array keys so a rejected frame reaches the DLQ
 * with its key exactly as received. {@code routeConfigValidated} carries the normalized
 * document as Avro {@code RouteConfigValue}.
 */
public record Topics(
        Topic<byte[], byte[]> agentFrames,
        Topic<String, byte[]> sessionControls,
        Topic<String, byte[]> kanbanDispatchAcks,
        Topic<String, byte[]> officeRunRequests,
        Topic<String, byte[]> officeRunControls,
        Topic<String, byte[]> officeDispatchAcks,
        Topic<String, byte[]> routeConfig,
        Topic<String, RouteConfigValue> routeConfigValidated,
        Topic<byte[], byte[]> dlq,
        Topic<String, Classification> classifications,
        Topic<String, UnclassifiedEvidence> unclassifiedEvidence,
        Topic<String, RetryCommand> kanbanRetryCommands,
        Topic<String, RecoveryState> kanbanRecoveryState,
        Topic<String, RouteCommand> officeRouteCommands,
        Topic<String, RunState> officeRunState,
        Topic<String, RouteAttempt> officeRouteAttempts,
        Topic<String, ProviderHealth> officeProviderHealth,
        Topic<String, ParkedRun> officeParkedRuns) {

    private static final Map<String, String> DELETE = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
    private static final Map<String, String> COMPACT = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    /** Frames carry broker time (DESIGN §4: stream time is broker time). */
    public static final Map<String, String> FRAMES_CONFIGS = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
            TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

    /** The registry for the topic names of {@code config}. */
    public static Topics from(RecourseConfig config) {
        Serde<String> s = Serdes.String();
        Serde<byte[]> b = Serdes.ByteArray();
        return new Topics(
                new Topic<>(config.topicName(TOPIC_AGENT_FRAMES), b, b, FRAMES_CONFIGS),
                new Topic<>(config.topicName(TOPIC_SESSION_CONTROLS), s, b, DELETE),
                new Topic<>(config.topicName(TOPIC_KANBAN_DISPATCH_ACKS), s, b, DELETE),
                new Topic<>(config.topicName(TOPIC_OFFICE_RUN_REQUESTS), s, b, DELETE),
                new Topic<>(config.topicName(TOPIC_OFFICE_RUN_CONTROLS), s, b, DELETE),
                new Topic<>(config.topicName(TOPIC_OFFICE_DISPATCH_ACKS), s, b, DELETE),
                new Topic<>(config.topicName(TOPIC_ROUTE_CONFIG), s, b, COMPACT),
                new Topic<>(config.topicName(TOPIC_ROUTE_CONFIG_VALIDATED), s, AvroSerde.of(RouteConfigValue.class), COMPACT),
                new Topic<>(config.topicName(TOPIC_DLQ), b, b, Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(config.dlqMaxRecordBytes()))),
                new Topic<>(config.topicName(TOPIC_CLASSIFICATIONS), s, AvroSerde.of(Classification.class), DELETE),
                new Topic<>(config.topicName(TOPIC_UNCLASSIFIED_EVIDENCE), s, AvroSerde.of(UnclassifiedEvidence.class), DELETE),
                new Topic<>(config.topicName(TOPIC_KANBAN_RETRY_COMMANDS), s, AvroSerde.of(RetryCommand.class), DELETE),
                new Topic<>(config.topicName(TOPIC_KANBAN_RECOVERY_STATE), s, AvroSerde.of(RecoveryState.class), COMPACT),
                new Topic<>(config.topicName(TOPIC_OFFICE_ROUTE_COMMANDS), s, AvroSerde.of(RouteCommand.class), DELETE),
                new Topic<>(config.topicName(TOPIC_OFFICE_RUN_STATE), s, AvroSerde.of(RunState.class), COMPACT),
                new Topic<>(config.topicName(TOPIC_OFFICE_ROUTE_ATTEMPTS), s, AvroSerde.of(RouteAttempt.class), DELETE),
                new Topic<>(config.topicName(TOPIC_OFFICE_PROVIDER_HEALTH), s, AvroSerde.of(ProviderHealth.class), COMPACT),
                new Topic<>(config.topicName(TOPIC_OFFICE_PARKED_RUNS), s, AvroSerde.of(ParkedRun.class), COMPACT));
    }

    /** Every topic, in DESIGN §2's order (what the provisioner creates). */
    public List<Topic<?, ?>> all() {
        return List.of(agentFrames, sessionControls, kanbanDispatchAcks, officeRunRequests, officeRunControls,
                officeDispatchAcks, routeConfig, routeConfigValidated, dlq, classifications, unclassifiedEvidence,
                kanbanRetryCommands, kanbanRecoveryState, officeRouteCommands, officeRunState, officeRouteAttempts,
                officeProviderHealth, officeParkedRuns);
    }
}
