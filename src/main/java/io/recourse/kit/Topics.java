package io.recourse.kit;

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
import io.recourse.config.TopicSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of DESIGN §2 topics: one {@link Topic} per {@link TopicSpec} declaration, under the
 * name the configuration gives it. Ingress values are JSON (raw bytes here, parsed by the ingress
 * stage); everything Recourse writes is Avro in single-object encoding ({@link AvroSerde}).
 *
 * <p>{@code agentFrames} and {@code dlq} use byte-array keys so a rejected frame reaches the DLQ
 * with its key exactly as received. {@code routeConfigValidated} carries the normalized
 * document as Avro {@code RouteConfigValue}. The named accessors are shorthands for
 * {@link #get(TopicSpec)}.
 */
public final class Topics {

    private final Map<TopicSpec<?, ?>, Topic<?, ?>> topics = new LinkedHashMap<>();

    private Topics(RecourseConfig config) {
        for (TopicSpec<?, ?> spec : TopicSpec.all()) {
            topics.put(spec, Topic.of(spec, config));
        }
    }

    /** The registry for the topic names of {@code config}. */
    public static Topics from(RecourseConfig config) {
        return new Topics(config);
    }

    /** The topic declared by {@code spec}. */
    @SuppressWarnings("unchecked")
    public <K, V> Topic<K, V> get(TopicSpec<K, V> spec) {
        return (Topic<K, V>) topics.get(spec);
    }

    /** Every topic, in DESIGN §2's order (what the provisioner creates and the startup checks verify). */
    public List<Topic<?, ?>> all() {
        return List.copyOf(topics.values());
    }

    public Topic<byte[], byte[]> agentFrames() {
        return get(TopicSpec.AGENT_FRAMES);
    }

    public Topic<String, byte[]> sessionControls() {
        return get(TopicSpec.SESSION_CONTROLS);
    }

    public Topic<String, byte[]> kanbanDispatchAcks() {
        return get(TopicSpec.KANBAN_DISPATCH_ACKS);
    }

    public Topic<String, byte[]> officeRunRequests() {
        return get(TopicSpec.OFFICE_RUN_REQUESTS);
    }

    public Topic<String, byte[]> officeRunControls() {
        return get(TopicSpec.OFFICE_RUN_CONTROLS);
    }

    public Topic<String, byte[]> officeDispatchAcks() {
        return get(TopicSpec.OFFICE_DISPATCH_ACKS);
    }

    public Topic<String, byte[]> routeConfig() {
        return get(TopicSpec.ROUTE_CONFIG);
    }

    public Topic<String, RouteConfigValue> routeConfigValidated() {
        return get(TopicSpec.ROUTE_CONFIG_VALIDATED);
    }

    public Topic<byte[], byte[]> dlq() {
        return get(TopicSpec.DLQ);
    }

    public Topic<String, Classification> classifications() {
        return get(TopicSpec.CLASSIFICATIONS);
    }

    public Topic<String, UnclassifiedEvidence> unclassifiedEvidence() {
        return get(TopicSpec.UNCLASSIFIED_EVIDENCE);
    }

    public Topic<String, RetryCommand> kanbanRetryCommands() {
        return get(TopicSpec.KANBAN_RETRY_COMMANDS);
    }

    public Topic<String, RecoveryState> kanbanRecoveryState() {
        return get(TopicSpec.KANBAN_RECOVERY_STATE);
    }

    public Topic<String, RouteCommand> officeRouteCommands() {
        return get(TopicSpec.OFFICE_ROUTE_COMMANDS);
    }

    public Topic<String, RunState> officeRunState() {
        return get(TopicSpec.OFFICE_RUN_STATE);
    }

    public Topic<String, RouteAttempt> officeRouteAttempts() {
        return get(TopicSpec.OFFICE_ROUTE_ATTEMPTS);
    }

    public Topic<String, ProviderHealth> officeProviderHealth() {
        return get(TopicSpec.OFFICE_PROVIDER_HEALTH);
    }

    public Topic<String, ParkedRun> officeParkedRuns() {
        return get(TopicSpec.OFFICE_PARKED_RUNS);
    }
}
