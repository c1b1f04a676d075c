package io.recourse.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Recourse's configuration: defaults, overridden by an optional properties file, overridden by
 * {@code RECOURSE_*} environment variables (DESIGN §§2–4, 6, 8).
 *
 * <p>Keys are either Recourse's own ({@code recourse.*}, listed as constants here, plus
 * {@link #STATE_DIR}, {@link #APPLICATION_ID}, {@link #PROCESSING_GUARANTEE}) or Kafka client /
 * Streams properties, which pass through unchanged to Kafka Streams ({@link #streamsProperties()}):
 * {@code bootstrap.servers}, {@code security.protocol}, {@code ssl.*}, {@code sasl.*}, … A key
 * written as {@code kafka.<name>} passes through as {@code <name>}.
 *
 * <p>Environment mapping: {@code RECOURSE_} + the key in upper case with {@code .} and {@code -}
 * as {@code _}; a Recourse key drops its {@code recourse.} prefix first. So
 * {@code RECOURSE_BOOTSTRAP_SERVERS} sets {@code bootstrap.servers},
 * {@code RECOURSE_TOPIC_AGENT_FRAMES} sets {@code recourse.topic.agent-frames}, and
 * {@code RECOURSE_SASL_JAAS_CONFIG} sets {@code sasl.jaas.config}.
 *
 * <p>Durations are milliseconds ({@code *.ms}), sizes bytes. Every value is validated when the
 * configuration is built; a bad one throws {@link ConfigurationException} naming key and value.
 */
public final class RecourseConfig {

    /** Prefix of the environment variables read by {@link #load(Path, Map)}. */
    public static final String ENV_PREFIX = "RECOURSE_";
    /** Prefix that marks a Kafka property explicitly; stripped before passing it on. */
    public static final String KAFKA_PREFIX = "kafka.";

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String APPLICATION_ID = "application.id";
    public static final String STATE_DIR = "state.dir";
    public static final String PROCESSING_GUARANTEE = "processing.guarantee";

    // --- topics (DESIGN §2): the name keys of the TopicSpec declarations ---
    public static final String TOPIC_AGENT_FRAMES = TopicSpec.AGENT_FRAMES.key();
    public static final String TOPIC_SESSION_CONTROLS = TopicSpec.SESSION_CONTROLS.key();
    public static final String TOPIC_KANBAN_DISPATCH_ACKS = TopicSpec.KANBAN_DISPATCH_ACKS.key();
    public static final String TOPIC_OFFICE_RUN_REQUESTS = TopicSpec.OFFICE_RUN_REQUESTS.key();
    public static final String TOPIC_OFFICE_RUN_CONTROLS = TopicSpec.OFFICE_RUN_CONTROLS.key();
    public static final String TOPIC_OFFICE_DISPATCH_ACKS = TopicSpec.OFFICE_DISPATCH_ACKS.key();
    public static final String TOPIC_ROUTE_CONFIG = TopicSpec.ROUTE_CONFIG.key();
    public static final String TOPIC_ROUTE_CONFIG_VALIDATED = TopicSpec.ROUTE_CONFIG_VALIDATED.key();
    public static final String TOPIC_DLQ = TopicSpec.DLQ.key();
    public static final String TOPIC_CLASSIFICATIONS = TopicSpec.CLASSIFICATIONS.key();
    public static final String TOPIC_UNCLASSIFIED_EVIDENCE = TopicSpec.UNCLASSIFIED_EVIDENCE.key();
    public static final String TOPIC_KANBAN_RETRY_COMMANDS = TopicSpec.KANBAN_RETRY_COMMANDS.key();
    public static final String TOPIC_KANBAN_RECOVERY_STATE = TopicSpec.KANBAN_RECOVERY_STATE.key();
    public static final String TOPIC_OFFICE_ROUTE_COMMANDS = TopicSpec.OFFICE_ROUTE_COMMANDS.key();
    public static final String TOPIC_OFFICE_RUN_STATE = TopicSpec.OFFICE_RUN_STATE.key();
    public static final String TOPIC_OFFICE_ROUTE_ATTEMPTS = TopicSpec.OFFICE_ROUTE_ATTEMPTS.key();
    public static final String TOPIC_OFFICE_PROVIDER_HEALTH = TopicSpec.OFFICE_PROVIDER_HEALTH.key();
    public static final String TOPIC_OFFICE_PARKED_RUNS = TopicSpec.OFFICE_PARKED_RUNS.key();

    /** Partitions of the topics Recourse creates (DESIGN §2); default 6. */
    public static final String TOPIC_PARTITIONS = "recourse.topic.partitions";
    /** Replication factor of the topics Recourse creates; -1 = the broker's default. */
    public static final String TOPIC_REPLICATION_FACTOR = "recourse.topic.replication.factor";
    /** Partitions of every owner's repartition topics (DESIGN §2); default 6. */
    public static final String OWNER_PARTITIONS = "recourse.owner.partitions";
    /**
     * Whether to create the DESIGN §2 topics when absent: default {@code true} on the embedded
     * broker, {@code false} on an external cluster.
     */
    public static final String TOPICS_CREATE = "recourse.topics.create";

    // --- time (DESIGN §§4, 6, 8) ---
    public static final String PUNCTUATION_INTERVAL_MS = "recourse.punctuation.interval.ms";
    public static final String STALENESS_MS = "recourse.staleness.ms";
    public static final String EVIDENCE_IDLE_MS = "recourse.evidence.idle.ms";
    public static final String EVIDENCE_RETENTION_MS = "recourse.evidence.retention.ms";
    public static final String DISPATCH_TIMEOUT_MS = "recourse.dispatch.timeout.ms";
    /**
     * How long a Kanban chain waits in {@code awaiting_outcome} for the retried turn's outcome
     * before it becomes {@code manual} ({@code outcome_timeout}); default 30 min (DESIGN §6.3).
     */
    public static final String OUTCOME_TIMEOUT_MS = "recourse.outcome.timeout.ms";
    /**
     * For this long after an interactive task reaches RUNNING, due retry timers wait, so the
     * session events restored or buffered meanwhile (a newer prompt) are applied before a retry can
     * fire; default 2 s (DESIGN §6.3, §8).
     */
    public static final String INTERACTIVE_START_SETTLE_MS = "recourse.interactive.start.settle.ms";
    /**
     * Whether a null-value record on {@code recourse.route-config} deletes the profile's document
     * ({@code allow}) or is dead-lettered, the last valid document staying in force
     * ({@code reject}, the default; DESIGN §7.1).
     */
    public static final String ROUTE_CONFIG_TOMBSTONES = "recourse.route-config.tombstones";
    /**
     * The stable name of this instance, from which {@code group.instance.id} (Kafka static
     * membership) is derived; default the host name. Empty = dynamic membership (DESIGN §8).
     */
    public static final String INSTANCE_NAME = "recourse.instance.name";

    // --- bounds (DESIGN §§3, 4) ---
    public static final String EVIDENCE_MAX_SIGNALS = "recourse.evidence.max.signals";
    public static final String EVIDENCE_MAX_SIGNAL_BYTES = "recourse.evidence.max.signal.bytes";
    public static final String EVIDENCE_MAX_TURN_BYTES = "recourse.evidence.max.turn.bytes";
    public static final String FRAME_MAX_BYTES = "recourse.frame.max.bytes";
    /**
     * Decoded turn states the evidence processor keeps in memory per task (least recently used
     * first out; default 10000, {@code 0} = no cache): a frame of a cached turn skips the turn
     * store's read and decode. The store stays the source of truth.
     */
    public static final String EVIDENCE_TURN_CACHE_ENTRIES = "recourse.evidence.turn.cache.entries";
    /**
     * Estimated bytes of the decoded turn states the evidence processor caches per task (default
     * 64 MiB): the cache evicts its least recently used turns beyond either this or
     * {@link #EVIDENCE_TURN_CACHE_ENTRIES}, so large valid turns cannot exhaust the heap.
     */
    public static final String EVIDENCE_TURN_CACHE_BYTES = "recourse.evidence.turn.cache.bytes";
    /**
     * Bound of one dead letter in bytes, key, value, headers and Kafka's overhead included (default
     * 1000000); the DLQ topic is created with it as {@code max.message.bytes}, and it must not exceed
     * the producer's {@code max.request.size} (DESIGN §3).
     */
    public static final String DLQ_MAX_RECORD_BYTES = "recourse.dlq.max.record.bytes";

    // --- embedded broker ---
    /** Port of the embedded broker's client listener; 0 = a free port. */
    public static final String EMBEDDED_PORT = "recourse.embedded.port";
    /** Port of the embedded broker's controller listener; 0 = a free port. */
    public static final String EMBEDDED_CONTROLLER_PORT = "recourse.embedded.controller.port";

    // --- observability (DESIGN §10) ---
    /**
     * Port of the Prometheus endpoint ({@code /metrics}, {@code /healthz}); default 9464,
     * {@code 0} = a free port, {@code -1} = no endpoint.
     */
    public static final String METRICS_PORT = "recourse.metrics.port";
    /** Address the metrics endpoint binds to; default {@code 127.0.0.1} (loopback), {@code 0.0.0.0} for all interfaces. */
    public static final String METRICS_HOST = "recourse.metrics.host";
    /**
     * Agent types kept as {@code agent_type} metric label values beyond the built-in list
     * ({@code RecourseMeters.KNOWN_AGENT_TYPES}): comma-separated names {@code [a-z0-9][a-z0-9._-]*}
     * of at most 64 characters, at most 64 of them; default none. Any other agent type reads {@code other}.
     */
    public static final String METRICS_AGENT_TYPES = "recourse.metrics.agent-types";
    /** Providers kept as {@code provider} metric label values beyond the built-in list; as {@link #METRICS_AGENT_TYPES}. */
    public static final String METRICS_PROVIDERS = "recourse.metrics.providers";
    /**
     * Port of the instance's HTTP server (queries, status page, {@code /health/*}, {@code /metrics});
     * {@code 0} = a free port, {@code -1} = no server; default blank = the value of {@link #METRICS_PORT}
     * (the key it replaces). With several instances it is the port of {@code application.server}.
     */
    public static final String HTTP_PORT = "recourse.http.port";
    /** Address the HTTP server binds to; default blank = the value of {@link #METRICS_HOST}. */
    public static final String HTTP_HOST = "recourse.http.host";
    /** Level of Recourse's own loggers ({@code io.recourse}): TRACE, DEBUG, INFO (default), WARN, ERROR or OFF. */
    public static final String LOG_LEVEL = "recourse.log.level";
    static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");


    private static final Map<String, String> DEFAULTS;
    private static final Map<String, String> TOPIC_DEFAULTS;

    static {
        TOPIC_DEFAULTS = Collections.unmodifiableMap(TopicSpec.defaultNames());
        Map<String, String> d = new LinkedHashMap<>(TOPIC_DEFAULTS);
        d.put(APPLICATION_ID, "recourse");
        d.put(STATE_DIR, "recourse-state");
        d.put(PROCESSING_GUARANTEE, "exactly_once_v2");
        d.put(TOPIC_PARTITIONS, "6");
        d.put(TOPIC_REPLICATION_FACTOR, "-1");
        d.put(OWNER_PARTITIONS, "6");
        d.put(PUNCTUATION_INTERVAL_MS, "1000");
        d.put(STALENESS_MS, String.valueOf(Duration.ofMinutes(5).toMillis()));
        d.put(EVIDENCE_IDLE_MS, String.valueOf(Duration.ofHours(2).toMillis()));
        d.put(EVIDENCE_RETENTION_MS, String.valueOf(Duration.ofHours(6).toMillis()));
        d.put(DISPATCH_TIMEOUT_MS, String.valueOf(Duration.ofSeconds(30).toMillis()));
        d.put(OUTCOME_TIMEOUT_MS, String.valueOf(Duration.ofMinutes(30).toMillis()));
        d.put(ROUTE_CONFIG_TOMBSTONES, "reject");
        d.put(INTERACTIVE_START_SETTLE_MS, "2000");
        d.put(EVIDENCE_MAX_SIGNALS, "32");
        d.put(EVIDENCE_MAX_SIGNAL_BYTES, String.valueOf(4 * 1024));
        d.put(EVIDENCE_MAX_TURN_BYTES, String.valueOf(16 * 1024));
        d.put(FRAME_MAX_BYTES, String.valueOf(256 * 1024));
        d.put(EVIDENCE_TURN_CACHE_ENTRIES, "10000");
        d.put(EVIDENCE_TURN_CACHE_BYTES, String.valueOf(64L * 1024 * 1024));
        d.put(DLQ_MAX_RECORD_BYTES, "1000000");
        d.put(EMBEDDED_PORT, "0");
        d.put(EMBEDDED_CONTROLLER_PORT, "0");
        d.put(METRICS_PORT, "9464");
        d.put(METRICS_HOST, "127.0.0.1");
        d.put(METRICS_AGENT_TYPES, "");
        d.put(METRICS_PROVIDERS, "");
        d.put(HTTP_PORT, "");
        d.put(HTTP_HOST, "");
        d.put(LOG_LEVEL, "INFO");
        DEFAULTS = Collections.unmodifiableMap(d);
    }


    private final Map<String, String> values;
    private final Map<String, ConfigSources.Source> sources;
    private final List<String> warnings;

    private RecourseConfig(Map<String, String> values, Map<String, ConfigSources.Source> sources, List<String> warnings) {
        Map<String, String> v = new TreeMap<>(values);
        v.values().removeIf(java.util.Objects::isNull);
        this.values = Collections.unmodifiableMap(v);
        Map<String, ConfigSources.Source> s = new TreeMap<>(sources);
        s.keySet().retainAll(v.keySet());
        this.sources = Collections.unmodifiableMap(s);
        this.warnings = List.copyOf(warnings);
        validate();
    }

    /** The defaults only (embedded broker, DESIGN §2 topic names). */
    public static RecourseConfig defaults() {
        return of(Map.of());
    }

    /**
     * Defaults overridden by {@code overrides} (their source: {@code flag}); keys are not checked
     * against the known ones (that is {@link #load}'s job).
     *
     * @throws ConfigurationException naming the first invalid key and value
     */
    public static RecourseConfig of(Map<String, String> overrides) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        Map<String, ConfigSources.Source> s = new LinkedHashMap<>();
        DEFAULTS.keySet().forEach(k -> s.put(k, ConfigSources.Source.DEFAULT));
        overrides.forEach((k, val) -> {
            v.put(k.trim(), val == null ? null : val.trim());
            s.put(k.trim(), ConfigSources.Source.FLAG);
        });
        return new RecourseConfig(v, s, List.of());
    }

    /**
     * Defaults, overridden by {@code file} (a Java properties file, optional), overridden by the
     * {@code RECOURSE_*} entries of {@code env}; every other {@code RECOURSE_*} variable passes
     * through as a Kafka key.
     *
     * @throws ConfigurationException when the file cannot be read, a {@code recourse.*} key of the
     *                                file is unknown (see {@link ConfigSources}) or a value is invalid
     */
    public static RecourseConfig load(Path file, Map<String, String> env) {
        return load(file, env, Map.of(), Map.of(), k -> true);
    }

    /**
     * The configuration from every source of {@link ConfigSources}, in increasing precedence: defaults,
     * {@code file} (optional), {@code RECOURSE_*} variables of {@code env}, {@code recourse.*} and
     * {@code kafka.*} entries of {@code systemProperties}, {@code flags}.
     *
     * @param kafkaKey true for a Kafka client or Streams configuration name: a {@code RECOURSE_*}
     *                 variable that maps to neither a Recourse key nor one of these is unknown
     * @throws ConfigurationException on an unreadable file, an unknown key (with the closest known
     *                                one; unless {@code recourse.config.allow-unknown=true}) or an invalid value
     */
    public static RecourseConfig load(Path file, Map<String, String> env, Map<String, String> systemProperties,
                                      Map<String, String> flags, java.util.function.Predicate<String> kafkaKey) {
        ConfigSources read = ConfigSources.read(file, env, systemProperties, flags, kafkaKey);
        return new RecourseConfig(read.values(), read.sources(), read.unknown());
    }

    /** Maps {@code RECOURSE_*} environment variables to configuration keys (see class doc). */
    static Map<String, String> fromEnvironment(Map<String, String> env) {
        ConfigSources read = ConfigSources.read(null, env, Map.of(), Map.of(), k -> true);
        Map<String, String> out = new LinkedHashMap<>();
        read.sources().forEach((k, source) -> {
            if (source == ConfigSources.Source.ENV) {
                out.put(k, read.values().get(k));
            }
        });
        return out;
    }

    /** The environment variable that sets {@code key}, e.g. {@code RECOURSE_TOPIC_PARTITIONS}. */
    public static String envName(String key) {
        return ConfigSources.envName(key);
    }

    /** Where the value of {@code key} came from ({@code null} when unset). */
    public ConfigSources.Source source(String key) {
        return sources.get(key);
    }

    /** Every configured key and its value, secrets included: print only through {@link #masked(String)}. */
    public Map<String, String> values() {
        return values;
    }

    /** The value of {@code key} for display: {@code [hidden]} for a secret ({@link #isSecret}). */
    public String masked(String key) {
        String v = values.get(key);
        return v == null ? null : isSecret(key) ? "[hidden]" : v;
    }

    /** The unknown keys accepted because {@code recourse.config.allow-unknown=true}, as messages. */
    public List<String> warnings() {
        return warnings;
    }

    /** Keys of the DESIGN §2 topic names, in the table's order, e.g. {@link #TOPIC_AGENT_FRAMES}. */
    public static List<String> topicKeys() {
        return List.copyOf(TOPIC_DEFAULTS.keySet());
    }

    /** Every key with a default, and its default value. */
    public static Map<String, String> defaultValues() {
        return DEFAULTS;
    }

    /** The configured value, or {@code null}. */
    public String get(String key) {
        return values.get(key);
    }

    /** The topic name configured under a topic key such as {@link #TOPIC_DLQ}. */
    public String topicName(String topicKey) {
        if (!TOPIC_DEFAULTS.containsKey(topicKey)) {
            throw new IllegalArgumentException("not a topic key: " + topicKey);
        }
        return values.get(topicKey);
    }

    /** The external cluster, or empty when Recourse runs its embedded broker. */
    public Optional<String> bootstrapServers() {
        return Optional.ofNullable(values.get(BOOTSTRAP_SERVERS)).filter(s -> !s.isBlank());
    }

    /** True when no {@code bootstrap.servers} is configured (DESIGN: embedded default broker). */
    public boolean embedded() {
        return bootstrapServers().isEmpty();
    }

    /** A copy of this configuration with {@code key} set to {@code value} (validated again). */
    public RecourseConfig with(String key, String value) {
        Map<String, String> v = new LinkedHashMap<>(values);
        v.put(key, value);
        Map<String, ConfigSources.Source> s = new LinkedHashMap<>(sources);
        s.put(key, ConfigSources.Source.FLAG);
        return new RecourseConfig(v, s, warnings);
    }

    public String applicationId() {
        return values.get(APPLICATION_ID);
    }

    /** Root of all local state: Streams' state under {@code streams/}, the embedded broker's under {@code broker/}. */
    public Path stateDir() {
        return Path.of(values.get(STATE_DIR));
    }

    public String processingGuarantee() {
        return values.get(PROCESSING_GUARANTEE);
    }

    public int topicPartitions() {
        return intValue(TOPIC_PARTITIONS);
    }

    public short topicReplicationFactor() {
        return (short) intValue(TOPIC_REPLICATION_FACTOR);
    }

    public int ownerPartitions() {
        return intValue(OWNER_PARTITIONS);
    }

    /** Whether to create absent topics: as configured, else only on the embedded broker. */
    public boolean createTopics() {
        String v = values.get(TOPICS_CREATE);
        return v == null ? embedded() : Boolean.parseBoolean(v);
    }

    public Duration punctuationInterval() {
        return Duration.ofMillis(longValue(PUNCTUATION_INTERVAL_MS));
    }

    public Duration staleness() {
        return Duration.ofMillis(longValue(STALENESS_MS));
    }

    public Duration evidenceIdle() {
        return Duration.ofMillis(longValue(EVIDENCE_IDLE_MS));
    }

    public Duration evidenceRetention() {
        return Duration.ofMillis(longValue(EVIDENCE_RETENTION_MS));
    }

    public Duration dispatchTimeout() {
        return Duration.ofMillis(longValue(DISPATCH_TIMEOUT_MS));
    }

    /** {@link #OUTCOME_TIMEOUT_MS}. */
    public Duration outcomeTimeout() {
        return Duration.ofMillis(longValue(OUTCOME_TIMEOUT_MS));
    }

    /**
     * {@link #INSTANCE_NAME}: as configured (characters outside {@code [A-Za-z0-9._-]} become
     * {@code _}), else the host name; empty when configured empty (dynamic membership).
     */
    public String instanceName() {
        String v = values.get(INSTANCE_NAME);
        if (v == null) {
            try {
                v = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                v = "";
            }
        }
        String name = v.replaceAll("[^A-Za-z0-9._-]", "_");
        return name.length() > 200 ? name.substring(0, 200) : name;
    }

    /** {@link #INTERACTIVE_START_SETTLE_MS}. */
    public Duration interactiveStartSettle() {
        return Duration.ofMillis(longValue(INTERACTIVE_START_SETTLE_MS));
    }

    /** {@link #ROUTE_CONFIG_TOMBSTONES}: true when a null value deletes the profile's document. */
    public boolean routeConfigTombstonesAllowed() {
        return values.get(ROUTE_CONFIG_TOMBSTONES).equals("allow");
    }

    public int evidenceMaxSignals() {
        return intValue(EVIDENCE_MAX_SIGNALS);
    }

    public int evidenceMaxSignalBytes() {
        return intValue(EVIDENCE_MAX_SIGNAL_BYTES);
    }

    public int evidenceMaxTurnBytes() {
        return intValue(EVIDENCE_MAX_TURN_BYTES);
    }

    /** {@link #EVIDENCE_TURN_CACHE_ENTRIES}: decoded turn states cached per task; 0 = none. */
    public int evidenceTurnCacheEntries() {
        return intValue(EVIDENCE_TURN_CACHE_ENTRIES);
    }

    /** {@link #EVIDENCE_TURN_CACHE_BYTES}: estimated bytes of the decoded turn states cached per task. */
    public long evidenceTurnCacheBytes() {
        return longValue(EVIDENCE_TURN_CACHE_BYTES);
    }

    /** {@link #DLQ_MAX_RECORD_BYTES}: the bound of one dead letter in bytes. */
    public int dlqMaxRecordBytes() {
        return intValue(DLQ_MAX_RECORD_BYTES);
    }

    public int frameMaxBytes() {
        return intValue(FRAME_MAX_BYTES);
    }

    public int embeddedPort() {
        return intValue(EMBEDDED_PORT);
    }

    public int embeddedControllerPort() {
        return intValue(EMBEDDED_CONTROLLER_PORT);
    }

    /** The metrics endpoint's port: 0 = a free port; empty when the endpoint is off ({@code -1}). */
    public OptionalInt metricsPort() {
        int port = intValue(METRICS_PORT);
        return port < 0 ? OptionalInt.empty() : OptionalInt.of(port);
    }

    /** {@link #METRICS_AGENT_TYPES}, in the order given. */
    public java.util.Set<String> metricsAgentTypes() {
        return labelValues(METRICS_AGENT_TYPES);
    }

    /** {@link #METRICS_PROVIDERS}, in the order given. */
    public java.util.Set<String> metricsProviders() {
        return labelValues(METRICS_PROVIDERS);
    }

    java.util.Set<String> labelValues(String key) {
        String v = values.get(key);
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        if (v != null) {
            for (String part : v.split(",", -1)) {
                if (!part.isBlank()) {
                    out.add(part.strip());
                }
            }
        }
        return java.util.Collections.unmodifiableSet(out);
    }

    /** The address the metrics endpoint binds to. */
    public String metricsHost() {
        return values.get(METRICS_HOST);
    }

    /** The HTTP server's port ({@link #HTTP_PORT}, else {@link #METRICS_PORT}): 0 = a free port; empty when off. */
    public OptionalInt httpPort() {
        return values.get(HTTP_PORT).isBlank() ? metricsPort() : port(intValue(HTTP_PORT));
    }

    /** The address the HTTP server binds to ({@link #HTTP_HOST}, else {@link #METRICS_HOST}). */
    public String httpHost() {
        return values.get(HTTP_HOST).isBlank() ? metricsHost() : values.get(HTTP_HOST);
    }

    /** {@link #LOG_LEVEL}, upper case. */
    public String logLevel() {
        return values.get(LOG_LEVEL).toUpperCase(Locale.ROOT);
    }

    private static OptionalInt port(int port) {
        return port < 0 ? OptionalInt.empty() : OptionalInt.of(port);
    }

    /**
     * The properties handed to Kafka clients and Kafka Streams: every key that is not Recourse's
     * own, unchanged ({@code kafka.} prefix stripped), plus {@code application.id},
     * {@code processing.guarantee} and {@code state.dir} (as {@code <state dir>/streams}).
     * {@code bootstrap.servers} is included only when configured.
     */
    public Map<String, String> streamsProperties() {
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(KAFKA_PREFIX)) {
                out.put(k.substring(KAFKA_PREFIX.length()), v);
            } else if (!k.startsWith("recourse.") && !k.equals(STATE_DIR)) {
                out.put(k, v);
            }
        });
        out.put("state.dir", stateDir().resolve("streams").toString());
        return out;
    }

    /** The Kafka client properties only (no Streams keys): for Admin and test clients. */
    public Map<String, Object> clientProperties(String bootstrap) {
        Map<String, Object> out = new TreeMap<>(streamsProperties());
        out.remove(APPLICATION_ID);
        out.remove(PROCESSING_GUARANTEE);
        out.remove("state.dir");
        out.put(BOOTSTRAP_SERVERS, bootstrap);
        return out;
    }

    private void validate() {
        ConfigValidation.validate(this);
    }

    long longValue(String key) {
        String v = values.get(key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key, v, "not an integer");
        }
    }

    int intValue(String key) {
        long v = longValue(key);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new ConfigurationException(key, v, "out of int range");
        }
        return (int) v;
    }

    @Override
    public String toString() {
        // Never print secrets: values of keys that look like credentials are masked.
        Map<String, String> shown = new TreeMap<>();
        values.forEach((k, v) -> shown.put(k, isSecret(k) ? "[hidden]" : v));
        return "RecourseConfig" + shown;
    }

    /** True for keys whose values must never be logged (passwords, JAAS configs, keys). */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("jaas") || k.contains("secret") || k.endsWith(".key")
                || k.contains("token") || k.contains("credentials");
    }
}
