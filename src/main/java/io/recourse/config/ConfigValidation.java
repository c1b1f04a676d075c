package io.recourse.config;

import static io.recourse.config.RecourseConfig.*;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The checks {@link RecourseConfig} runs on every value when it is built; each failure names key and value. */
final class ConfigValidation {

    private static final Pattern LABEL_VALUE = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final int MAX_LABEL_VALUES = 64;
    /** Kafka's legal topic names (Topic.validate): at most 249 of [a-zA-Z0-9._-]. */
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final List<String> GUARANTEES = List.of("exactly_once_v2", "at_least_once");

    private ConfigValidation() {
    }

    static void validate(RecourseConfig c) {
        for (String key : RecourseConfig.topicKeys()) {
            String name = c.get(key);
            if (!TOPIC_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
                throw new ConfigurationException(key, name, "not a legal Kafka topic name ([a-zA-Z0-9._-], 1..249 chars)");
            }
        }
        Map<String, String> seen = new LinkedHashMap<>();
        for (String key : RecourseConfig.topicKeys()) {
            String previous = seen.putIfAbsent(c.get(key), key);
            if (previous != null) {
                throw new ConfigurationException(key, c.get(key), "same topic as " + previous);
            }
        }
        if (!GUARANTEES.contains(c.processingGuarantee())) {
            throw new ConfigurationException(PROCESSING_GUARANTEE, c.processingGuarantee(), "expected one of " + GUARANTEES);
        }
        if (c.applicationId().isBlank()) {
            throw new ConfigurationException(APPLICATION_ID, c.applicationId(), "must not be blank");
        }
        if (c.get(STATE_DIR).isBlank()) {
            throw new ConfigurationException(STATE_DIR, c.get(STATE_DIR), "must not be blank");
        }
        String create = c.get(TOPICS_CREATE);
        if (create != null && !create.equals("true") && !create.equals("false")) {
            throw new ConfigurationException(TOPICS_CREATE, create, "expected true or false");
        }
        range(c, TOPIC_PARTITIONS, 1, 10_000);
        range(c, OWNER_PARTITIONS, 1, 10_000);
        int rf = c.intValue(TOPIC_REPLICATION_FACTOR);
        if (rf == 0 || rf < -1 || rf > Short.MAX_VALUE) {
            throw new ConfigurationException(TOPIC_REPLICATION_FACTOR, rf, "expected -1 (broker default) or ≥ 1");
        }
        range(c, PUNCTUATION_INTERVAL_MS, 1, Duration.ofHours(1).toMillis());
        range(c, STALENESS_MS, 1, Long.MAX_VALUE);
        range(c, EVIDENCE_IDLE_MS, 1, Long.MAX_VALUE);
        range(c, EVIDENCE_RETENTION_MS, 1, Long.MAX_VALUE);
        range(c, DISPATCH_TIMEOUT_MS, 1, Long.MAX_VALUE);
        range(c, OUTCOME_TIMEOUT_MS, 1, Long.MAX_VALUE);
        range(c, INTERACTIVE_START_SETTLE_MS, 0, Duration.ofHours(1).toMillis());
        String tombstones = c.get(ROUTE_CONFIG_TOMBSTONES);
        if (!tombstones.equals("allow") && !tombstones.equals("reject")) {
            throw new ConfigurationException(ROUTE_CONFIG_TOMBSTONES, tombstones, "expected allow or reject");
        }
        range(c, EVIDENCE_MAX_SIGNALS, 1, 10_000);
        range(c, EVIDENCE_MAX_SIGNAL_BYTES, 1, 1 << 20);
        range(c, EVIDENCE_MAX_TURN_BYTES, 1, 1 << 24);
        range(c, FRAME_MAX_BYTES, 1, 1 << 30);
        range(c, EVIDENCE_TURN_CACHE_ENTRIES, 0, 1_000_000);
        range(c, EVIDENCE_TURN_CACHE_BYTES, 0, Long.MAX_VALUE);
        range(c, DLQ_MAX_RECORD_BYTES, 4096, Integer.MAX_VALUE);
        for (String producerKey : new String[] {"max.request.size", "producer.max.request.size"}) {
            String limit = c.streamsProperties().get(producerKey);
            long max = limit == null ? DEFAULT_MAX_REQUEST_SIZE : parseOr(limit, DEFAULT_MAX_REQUEST_SIZE);
            if (c.dlqMaxRecordBytes() > max) {
                throw new ConfigurationException(DLQ_MAX_RECORD_BYTES, c.get(DLQ_MAX_RECORD_BYTES),
                        "more than the producer's " + producerKey + "=" + max + " (DESIGN §3: a dead letter must be writable)");
            }
        }
        range(c, EMBEDDED_PORT, 0, 65_535);
        range(c, EMBEDDED_CONTROLLER_PORT, 0, 65_535);
        range(c, METRICS_PORT, -1, 65_535);
        if (!c.get(HTTP_PORT).isBlank()) {
            range(c, HTTP_PORT, -1, 65_535);
        }
        if (!LOG_LEVELS.contains(c.get(LOG_LEVEL).toUpperCase(java.util.Locale.ROOT))) {
            throw new ConfigurationException(LOG_LEVEL, c.get(LOG_LEVEL), "expected one of " + LOG_LEVELS);
        }
        if (c.get(METRICS_HOST).isBlank()) {
            throw new ConfigurationException(METRICS_HOST, c.get(METRICS_HOST), "must not be blank");
        }
        for (String key : List.of(METRICS_AGENT_TYPES, METRICS_PROVIDERS)) {
            java.util.Set<String> labels = c.labelValues(key);
            if (labels.size() > MAX_LABEL_VALUES) {
                throw new ConfigurationException(key, c.get(key), "at most " + MAX_LABEL_VALUES + " names");
            }
            for (String label : labels) {
                if (!LABEL_VALUE.matcher(label).matches()) {
                    throw new ConfigurationException(key, c.get(key),
                            "'" + label + "' is not a label name ([a-z0-9][a-z0-9._-]*, at most 64 characters)");
                }
            }
        }
        if (c.longValue(EVIDENCE_IDLE_MS) >= c.longValue(EVIDENCE_RETENTION_MS)) {
            throw new ConfigurationException(EVIDENCE_IDLE_MS, c.get(EVIDENCE_IDLE_MS),
                    "the idle bound must be less than " + EVIDENCE_RETENTION_MS + "=" + c.get(EVIDENCE_RETENTION_MS)
                            + " (DESIGN §4), or a turn's signals leave before it expires");
        }
        if (c.evidenceMaxTurnBytes() < c.evidenceMaxSignalBytes()) {
            throw new ConfigurationException(EVIDENCE_MAX_TURN_BYTES, c.get(EVIDENCE_MAX_TURN_BYTES),
                    "must be at least " + EVIDENCE_MAX_SIGNAL_BYTES + "=" + c.get(EVIDENCE_MAX_SIGNAL_BYTES));
        }
        if (c.embedded() && c.embeddedPort() != 0 && c.embeddedPort() == c.embeddedControllerPort()) {
            throw new ConfigurationException(EMBEDDED_CONTROLLER_PORT, c.embeddedControllerPort(), "same port as " + EMBEDDED_PORT);
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

    private static void range(RecourseConfig c, String key, long min, long max) {
        long v = c.longValue(key);
        if (v < min || v > max) {
            throw new ConfigurationException(key, c.get(key),
                    "expected " + min + (max == Long.MAX_VALUE ? " or more" : ".." + max));
        }
    }

}
