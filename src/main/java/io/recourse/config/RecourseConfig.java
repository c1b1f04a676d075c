package io.recourse.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

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

    // --- topics (DESIGN §2) ---
    public static final String TOPIC_AGENT_FRAMES = "recourse.topic.agent-frames";
    public static final String TOPIC_SESSION_CONTROLS = "recourse.topic.session-controls";
    public static final String TOPIC_KANBAN_DISPATCH_ACKS = "recourse.topic.kanban.dispatch-acks";
    public static final String TOPIC_OFFICE_RUN_REQUESTS = "recourse.topic.office.run-requests";
    public static final String TOPIC_OFFICE_RUN_CONTROLS = "recourse.topic.office.run-controls";
    public static final String TOPIC_OFFICE_DISPATCH_ACKS = "recourse.topic.office.dispatch-acks";
    public static final String TOPIC_ROUTE_CONFIG = "recourse.topic.route-config";
    public static final String TOPIC_ROUTE_CONFIG_VALIDATED = "recourse.topic.route-config.validated";
    public static final String TOPIC_DLQ = "recourse.topic.dlq";
    public static final String TOPIC_CLASSIFICATIONS = "recourse.topic.classifications";
    public static final String TOPIC_UNCLASSIFIED_EVIDENCE = "recourse.topic.unclassified-evidence";
    public static final String TOPIC_KANBAN_RETRY_COMMANDS = "recourse.topic.kanban.retry-commands";
    public static final String TOPIC_KANBAN_RECOVERY_STATE = "recourse.topic.kanban.recovery-state";
    public static final String TOPIC_OFFICE_ROUTE_COMMANDS = "recourse.topic.office.route-commands";
    public static final String TOPIC_OFFICE_RUN_STATE = "recourse.topic.office.run-state";
    public static final String TOPIC_OFFICE_ROUTE_ATTEMPTS = "recourse.topic.office.route-attempts";
    public static final String TOPIC_OFFICE_PROVIDER_HEALTH = "recourse.topic.office.provider-health";
    public static final String TOPIC_OFFICE_PARKED_RUNS = "recourse.topic.office.parked-runs";

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
     * Whether a null-value record on {@code recourse.route-config} deletes the profile's document
     * ({@code allow}) or is dead-lettered, the last valid document staying in force
     * ({@code reject}, the default; DESIGN §7.1).
     */
    /**
     * For this long after an interactive task reaches RUNNING, due retry timers wait, so the
     * session events restored or buffered meanwhile (a newer prompt) are applied before a retry can
     * fire; default 2 s (DESIGN §6.3, §8).
     */
    public static final String INTERACTIVE_START_SETTLE_MS = "recourse.interactive.start.settle.ms";
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
    private static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    private static final Pattern LABEL_VALUE = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final int MAX_LABEL_VALUES = 64;

    private static final Map<String, String> DEFAULTS;
    private static final Map<String, String> TOPIC_DEFAULTS;

    static {
        Map<String, String> t = new LinkedHashMap<>();
        t.put(TOPIC_AGENT_FRAMES, "recourse.agent-frames");
        t.put(TOPIC_SESSION_CONTROLS, "recourse.session-controls");
        t.put(TOPIC_KANBAN_DISPATCH_ACKS, "recourse.kanban.dispatch-acks");
        t.put(TOPIC_OFFICE_RUN_REQUESTS, "recourse.office.run-requests");
        t.put(TOPIC_OFFICE_RUN_CONTROLS, "recourse.office.run-controls");
        t.put(TOPIC_OFFICE_DISPATCH_ACKS, "recourse.office.dispatch-acks");
        t.put(TOPIC_ROUTE_CONFIG, "recourse.route-config");
        t.put(TOPIC_ROUTE_CONFIG_VALIDATED, "recourse.route-config.validated");
        t.put(TOPIC_DLQ, "recourse.dlq");
        t.put(TOPIC_CLASSIFICATIONS, "recourse.classifications");
        t.put(TOPIC_UNCLASSIFIED_EVIDENCE, "recourse.unclassified-evidence");
        t.put(TOPIC_KANBAN_RETRY_COMMANDS, "recourse.kanban.retry-commands");
        t.put(TOPIC_KANBAN_RECOVERY_STATE, "recourse.kanban.recovery-state");
        t.put(TOPIC_OFFICE_ROUTE_COMMANDS, "recourse.office.route-commands");
        t.put(TOPIC_OFFICE_RUN_STATE, "recourse.office.run-state");
        t.put(TOPIC_OFFICE_ROUTE_ATTEMPTS, "recourse.office.route-attempts");
        t.put(TOPIC_OFFICE_PROVIDER_HEALTH, "recourse.office.provider-health");
        t.put(TOPIC_OFFICE_PARKED_RUNS, "recourse.office.parked-runs");
        TOPIC_DEFAULTS = Collections.unmodifiableMap(t);

        Map<String, String> d = new LinkedHashMap<>(t);
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

    /** Kafka's legal topic names (Topic.validate): at most 249 of [a-zA-Z0-9._-]. */
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final List<String> GUARANTEES = List.of("exactly_once_v2", "at_least_once");

    private final Map<String, String> values;

    private RecourseConfig(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        validate();
    }

    /** The defaults only (embedded broker, DESIGN §2 topic names). */
    public static RecourseConfig defaults() {
        return of(Map.of());
    }

    /**
     * Defaults overridden by {@code overrides}.
     *
     * @throws ConfigurationException naming the first invalid key and value
     */
    public static RecourseConfig of(Map<String, String> overrides) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        overrides.forEach((k, val) -> v.put(k.trim(), val == null ? null : val.trim()));
        v.values().removeIf(java.util.Objects::isNull);
        return new RecourseConfig(v);
    }

    /**
     * Defaults, overridden by {@code file} (a Java properties file, optional), overridden by the
     * {@code RECOURSE_*} entries of {@code env}.
     *
     * @throws ConfigurationException when the file cannot be read or a value is invalid
     */
    public static RecourseConfig load(Path file, Map<String, String> env) {
        Map<String, String> v = new LinkedHashMap<>();
        if (file != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new ConfigurationException("--config", file, "cannot read: " + e.getMessage());
            }
            p.stringPropertyNames().forEach(k -> v.put(k, p.getProperty(k)));
        }
        v.putAll(fromEnvironment(env));
        return of(v);
    }

    /** Maps {@code RECOURSE_*} environment variables to configuration keys (see class doc). */
    static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> known = new LinkedHashMap<>();
        for (String key : DEFAULTS.keySet()) {
            known.put(envName(key), key);
        }
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            if (!name.startsWith(ENV_PREFIX) || name.length() == ENV_PREFIX.length()) {
                return;
            }
            String key = known.get(name);
            if (key == null) {
                key = name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
            }
            out.put(key, value);
        });
        return out;
    }

    /** The environment variable that sets {@code key}, e.g. {@code RECOURSE_TOPIC_PARTITIONS}. */
    public static String envName(String key) {
        String k = key.startsWith("recourse.") ? key.substring("recourse.".length()) : key;
        return ENV_PREFIX + k.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
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
        return new RecourseConfig(v);
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

    /** The address the metrics endpoint binds to. */
    /** {@link #METRICS_AGENT_TYPES}, in the order given. */
    public java.util.Set<String> metricsAgentTypes() {
        return labelValues(METRICS_AGENT_TYPES);
    }

    /** {@link #METRICS_PROVIDERS}, in the order given. */
    public java.util.Set<String> metricsProviders() {
        return labelValues(METRICS_PROVIDERS);
    }

    private java.util.Set<String> labelValues(String key) {
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
        for (String key : TOPIC_DEFAULTS.keySet()) {
            String name = values.get(key);
            if (!TOPIC_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
                throw new ConfigurationException(key, name, "not a legal Kafka topic name ([a-zA-Z0-9._-], 1..249 chars)");
            }
        }
        Map<String, String> seen = new LinkedHashMap<>();
        for (String key : TOPIC_DEFAULTS.keySet()) {
            String previous = seen.putIfAbsent(values.get(key), key);
            if (previous != null) {
                throw new ConfigurationException(key, values.get(key), "same topic as " + previous);
            }
        }
        if (!GUARANTEES.contains(processingGuarantee())) {
            throw new ConfigurationException(PROCESSING_GUARANTEE, processingGuarantee(), "expected one of " + GUARANTEES);
        }
        if (applicationId().isBlank()) {
            throw new ConfigurationException(APPLICATION_ID, applicationId(), "must not be blank");
        }
        if (values.get(STATE_DIR).isBlank()) {
            throw new ConfigurationException(STATE_DIR, values.get(STATE_DIR), "must not be blank");
        }
        String create = values.get(TOPICS_CREATE);
        if (create != null && !create.equals("true") && !create.equals("false")) {
            throw new ConfigurationException(TOPICS_CREATE, create, "expected true or false");
        }
        range(TOPIC_PARTITIONS, 1, 10_000);
        range(OWNER_PARTITIONS, 1, 10_000);
        int rf = intValue(TOPIC_REPLICATION_FACTOR);
        if (rf == 0 || rf < -1 || rf > Short.MAX_VALUE) {
            throw new ConfigurationException(TOPIC_REPLICATION_FACTOR, rf, "expected -1 (broker default) or ≥ 1");
        }
        range(PUNCTUATION_INTERVAL_MS, 1, Duration.ofHours(1).toMillis());
        range(STALENESS_MS, 1, Long.MAX_VALUE);
        range(EVIDENCE_IDLE_MS, 1, Long.MAX_VALUE);
        range(EVIDENCE_RETENTION_MS, 1, Long.MAX_VALUE);
        range(DISPATCH_TIMEOUT_MS, 1, Long.MAX_VALUE);
        range(OUTCOME_TIMEOUT_MS, 1, Long.MAX_VALUE);
        range(INTERACTIVE_START_SETTLE_MS, 0, Duration.ofHours(1).toMillis());
        String tombstones = values.get(ROUTE_CONFIG_TOMBSTONES);
        if (!tombstones.equals("allow") && !tombstones.equals("reject")) {
            throw new ConfigurationException(ROUTE_CONFIG_TOMBSTONES, tombstones, "expected allow or reject");
        }
        range(EVIDENCE_MAX_SIGNALS, 1, 10_000);
        range(EVIDENCE_MAX_SIGNAL_BYTES, 1, 1 << 20);
        range(EVIDENCE_MAX_TURN_BYTES, 1, 1 << 24);
        range(FRAME_MAX_BYTES, 1, 1 << 30);
        range(EVIDENCE_TURN_CACHE_ENTRIES, 0, 1_000_000);
        range(EVIDENCE_TURN_CACHE_BYTES, 0, Long.MAX_VALUE);
        range(DLQ_MAX_RECORD_BYTES, 4096, Integer.MAX_VALUE);
        for (String producerKey : new String[] {"max.request.size", "producer.max.request.size"}) {
            String limit = streamsProperties().get(producerKey);
            long max = limit == null ? DEFAULT_MAX_REQUEST_SIZE : parseOr(limit, DEFAULT_MAX_REQUEST_SIZE);
            if (dlqMaxRecordBytes() > max) {
                throw new ConfigurationException(DLQ_MAX_RECORD_BYTES, values.get(DLQ_MAX_RECORD_BYTES),
                        "more than the producer's " + producerKey + "=" + max + " (DESIGN §3: a dead letter must be writable)");
            }
        }
        range(EMBEDDED_PORT, 0, 65_535);
        range(EMBEDDED_CONTROLLER_PORT, 0, 65_535);
        range(METRICS_PORT, -1, 65_535);
        if (!values.get(HTTP_PORT).isBlank()) {
            range(HTTP_PORT, -1, 65_535);
        }
        if (!LOG_LEVELS.contains(values.get(LOG_LEVEL).toUpperCase(Locale.ROOT))) {
            throw new ConfigurationException(LOG_LEVEL, values.get(LOG_LEVEL), "expected one of " + LOG_LEVELS);
        }
        if (values.get(METRICS_HOST).isBlank()) {
            throw new ConfigurationException(METRICS_HOST, values.get(METRICS_HOST), "must not be blank");
        }
        for (String key : List.of(METRICS_AGENT_TYPES, METRICS_PROVIDERS)) {
            java.util.Set<String> labels = labelValues(key);
            if (labels.size() > MAX_LABEL_VALUES) {
                throw new ConfigurationException(key, values.get(key), "at most " + MAX_LABEL_VALUES + " names");
            }
            for (String label : labels) {
                if (!LABEL_VALUE.matcher(label).matches()) {
                    throw new ConfigurationException(key, values.get(key),
                            "'" + label + "' is not a label name ([a-z0-9][a-z0-9._-]*, at most 64 characters)");
                }
            }
        }
        if (longValue(EVIDENCE_IDLE_MS) >= longValue(EVIDENCE_RETENTION_MS)) {
            throw new ConfigurationException(EVIDENCE_IDLE_MS, values.get(EVIDENCE_IDLE_MS),
                    "the idle bound must be less than " + EVIDENCE_RETENTION_MS + "=" + values.get(EVIDENCE_RETENTION_MS)
                            + " (DESIGN §4), or a turn's signals leave before it expires");
        }
        if (evidenceMaxTurnBytes() < evidenceMaxSignalBytes()) {
            throw new ConfigurationException(EVIDENCE_MAX_TURN_BYTES, values.get(EVIDENCE_MAX_TURN_BYTES),
                    "must be at least " + EVIDENCE_MAX_SIGNAL_BYTES + "=" + values.get(EVIDENCE_MAX_SIGNAL_BYTES));
        }
        if (embedded() && embeddedPort() != 0 && embeddedPort() == embeddedControllerPort()) {
            throw new ConfigurationException(EMBEDDED_CONTROLLER_PORT, embeddedControllerPort(), "same port as " + EMBEDDED_PORT);
        }
    }

    /** The producer's default {@code max.request.size}: 1 MiB. */
    private static final long DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;

    private static long parseOr(String v, long fallback) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private void range(String key, long min, long max) {
        long v = longValue(key);
        if (v < min || v > max) {
            throw new ConfigurationException(key, values.get(key),
                    "expected " + min + (max == Long.MAX_VALUE ? " or more" : ".." + max));
        }
    }

    private long longValue(String key) {
        String v = values.get(key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key, v, "not an integer");
        }
    }

    private int intValue(String key) {
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
