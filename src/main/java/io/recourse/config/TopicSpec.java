package io.recourse.config;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One topic of DESIGN §2, declared once: everything else about it derives from this declaration —
 * its configuration key ({@code recourse.topic.<id>}), its default name ({@code recourse.<id>}),
 * the Java types of its key and value (from which {@code kit.Topic} derives the serdes: {@code String}
 * and {@code byte[]} as Kafka's own, an Avro record as single-object encoding), its cleanup policy,
 * its timestamp type, who writes and reads it (for the ACLs and {@code recourse produce}), and, for a
 * JSON input, its schema in {@code schemas/} and the JSON field its key is made of.
 *
 * <p>To add a topic, add one constant here (in DESIGN §2's order): the configuration, the registry
 * ({@code kit.Topics}), the provisioner, the startup checks and {@code recourse topics} pick it up.
 *
 * @param <K> the key's Java type: {@code String} or {@code byte[]}
 * @param <V> the value's Java type: {@code byte[]} (JSON, parsed by its stage) or an Avro record
 */
public final class TopicSpec<K, V> {

    /** {@code cleanup.policy}. */
    public enum Cleanup {
        DELETE, COMPACT;

        /** The topic config value: {@code delete} or {@code compact}. */
        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** {@code message.timestamp.type}: set to {@code LogAppendTime}, or left to the broker (CreateTime by default). */
    public enum Timestamps {
        BROKER_DEFAULT, LOG_APPEND_TIME
    }

    /** Who writes the topic and who reads it (DESIGN §2's "dir" column). */
    public enum Direction {
        /** Written by others (gateways, dispatchers, UIs), read by Recourse. */
        IN,
        /** Written and read by Recourse (its GlobalKTable's source). */
        INTERNAL,
        /** Written by Recourse, read by others. */
        OUT
    }

    private static final List<TopicSpec<?, ?>> ALL = new ArrayList<>();

    public static final TopicSpec<byte[], byte[]> AGENT_FRAMES = declare("agent-frames", byte[].class, byte[].class,
            Cleanup.DELETE, Timestamps.LOG_APPEND_TIME, Direction.IN, "agent-frame.schema.json", "session_id/prompt_generation");
    public static final TopicSpec<String, byte[]> SESSION_CONTROLS = input("session-controls",
            Cleanup.DELETE, "session-control.schema.json", "session_id");
    public static final TopicSpec<String, byte[]> KANBAN_DISPATCH_ACKS = input("kanban.dispatch-acks",
            Cleanup.DELETE, "kanban-dispatch-ack.schema.json", "session_id");
    public static final TopicSpec<String, byte[]> OFFICE_RUN_REQUESTS = input("office.run-requests",
            Cleanup.DELETE, "office-run-request.schema.json", "workspace_id");
    public static final TopicSpec<String, byte[]> OFFICE_RUN_CONTROLS = input("office.run-controls",
            Cleanup.DELETE, "office-run-control.schema.json", "workspace_id");
    public static final TopicSpec<String, byte[]> OFFICE_DISPATCH_ACKS = input("office.dispatch-acks",
            Cleanup.DELETE, "office-dispatch-ack.schema.json", "workspace_id");
    public static final TopicSpec<String, byte[]> ROUTE_CONFIG = input("route-config",
            Cleanup.COMPACT, "route-config.schema.json", "dynamic_profile_id");
    public static final TopicSpec<String, RouteConfigValue> ROUTE_CONFIG_VALIDATED = declare("route-config.validated",
            String.class, RouteConfigValue.class, Cleanup.COMPACT, Timestamps.BROKER_DEFAULT, Direction.INTERNAL, null, null);
    /** Keys and values as received; created with {@code max.message.bytes} = {@code recourse.dlq.max.record.bytes}. */
    public static final TopicSpec<byte[], byte[]> DLQ = declare("dlq", byte[].class, byte[].class,
            Cleanup.DELETE, Timestamps.BROKER_DEFAULT, Direction.OUT, null, null);
    public static final TopicSpec<String, Classification> CLASSIFICATIONS = output("classifications",
            Classification.class, Cleanup.DELETE);
    public static final TopicSpec<String, UnclassifiedEvidence> UNCLASSIFIED_EVIDENCE = output("unclassified-evidence",
            UnclassifiedEvidence.class, Cleanup.DELETE);
    public static final TopicSpec<String, RetryCommand> KANBAN_RETRY_COMMANDS = output("kanban.retry-commands",
            RetryCommand.class, Cleanup.DELETE);
    public static final TopicSpec<String, RecoveryState> KANBAN_RECOVERY_STATE = output("kanban.recovery-state",
            RecoveryState.class, Cleanup.COMPACT);
    public static final TopicSpec<String, RouteCommand> OFFICE_ROUTE_COMMANDS = output("office.route-commands",
            RouteCommand.class, Cleanup.DELETE);
    public static final TopicSpec<String, RunState> OFFICE_RUN_STATE = output("office.run-state",
            RunState.class, Cleanup.COMPACT);
    public static final TopicSpec<String, RouteAttempt> OFFICE_ROUTE_ATTEMPTS = output("office.route-attempts",
            RouteAttempt.class, Cleanup.DELETE);
    public static final TopicSpec<String, ProviderHealth> OFFICE_PROVIDER_HEALTH = output("office.provider-health",
            ProviderHealth.class, Cleanup.COMPACT);
    public static final TopicSpec<String, ParkedRun> OFFICE_PARKED_RUNS = output("office.parked-runs",
            ParkedRun.class, Cleanup.COMPACT);

    private final String id;
    private final Class<K> keyType;
    private final Class<V> valueType;
    private final Cleanup cleanup;
    private final Timestamps timestamps;
    private final Direction direction;
    private final String schemaFile;
    private final String keyFields;

    private TopicSpec(String id, Class<K> keyType, Class<V> valueType, Cleanup cleanup, Timestamps timestamps,
                      Direction direction, String schemaFile, String keyFields) {
        this.id = Objects.requireNonNull(id);
        this.keyType = Objects.requireNonNull(keyType);
        this.valueType = Objects.requireNonNull(valueType);
        this.cleanup = Objects.requireNonNull(cleanup);
        this.timestamps = Objects.requireNonNull(timestamps);
        this.direction = Objects.requireNonNull(direction);
        this.schemaFile = schemaFile;
        this.keyFields = keyFields;
    }

    private static <K, V> TopicSpec<K, V> declare(String id, Class<K> keyType, Class<V> valueType, Cleanup cleanup,
                                                  Timestamps timestamps, Direction direction, String schemaFile, String keyFields) {
        TopicSpec<K, V> spec = new TopicSpec<>(id, keyType, valueType, cleanup, timestamps, direction, schemaFile, keyFields);
        ALL.add(spec);
        return spec;
    }

    private static TopicSpec<String, byte[]> input(String id, Cleanup cleanup, String schemaFile, String keyField) {
        return declare(id, String.class, byte[].class, cleanup, Timestamps.BROKER_DEFAULT, Direction.IN, schemaFile, keyField);
    }

    private static <V> TopicSpec<String, V> output(String id, Class<V> valueType, Cleanup cleanup) {
        return declare(id, String.class, valueType, cleanup, Timestamps.BROKER_DEFAULT, Direction.OUT, null, null);
    }

    /** Every declared topic, in DESIGN §2's order. */
    public static List<TopicSpec<?, ?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** The declaration configured under {@code key} (e.g. {@code recourse.topic.dlq}), if any. */
    public static Optional<TopicSpec<?, ?>> byKey(String key) {
        return ALL.stream().filter(s -> s.key().equals(key)).findFirst();
    }

    /** Key → default name of every topic, in DESIGN §2's order. */
    static Map<String, String> defaultNames() {
        Map<String, String> out = new LinkedHashMap<>();
        ALL.forEach(s -> out.put(s.key(), s.defaultName()));
        return out;
    }

    /** The short id, e.g. {@code kanban.retry-commands}. */
    public String id() {
        return id;
    }

    /** The configuration key of its name, e.g. {@code recourse.topic.kanban.retry-commands}. */
    public String key() {
        return "recourse.topic." + id;
    }

    /** The default name, e.g. {@code recourse.kanban.retry-commands}. */
    public String defaultName() {
        return "recourse." + id;
    }

    /** The name configured in {@code config}. */
    public String name(RecourseConfig config) {
        return config.topicName(key());
    }

    public Class<K> keyType() {
        return keyType;
    }

    public Class<V> valueType() {
        return valueType;
    }

    public Cleanup cleanup() {
        return cleanup;
    }

    public Timestamps timestamps() {
        return timestamps;
    }

    public Direction direction() {
        return direction;
    }

    /**
     * The topic configs Recourse creates it with (and {@code recourse topics check} verifies):
     * {@code cleanup.policy}; {@code message.timestamp.type=LogAppendTime} where declared; on the
     * DLQ {@code max.message.bytes} = {@code recourse.dlq.max.record.bytes}.
     */
    public Map<String, String> topicConfigs(RecourseConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("cleanup.policy", cleanup.value());
        if (timestamps == Timestamps.LOG_APPEND_TIME) {
            out.put("message.timestamp.type", "LogAppendTime");
        }
        if (this == DLQ) {
            out.put("max.message.bytes", String.valueOf(config.dlqMaxRecordBytes()));
        }
        return out;
    }

    /** For a JSON input: its JSON Schema's file name in {@code schemas/} (e.g. {@code session-control.schema.json}). */
    public Optional<String> schemaFile() {
        return Optional.ofNullable(schemaFile);
    }

    /**
     * For a JSON input: the field(s) its record key is made of — one field name, or for frames
     * {@code session_id/prompt_generation} (the two values joined by {@code /}).
     */
    public Optional<String> keyFields() {
        return Optional.ofNullable(keyFields);
    }

    @Override
    public String toString() {
        return key();
    }
}
