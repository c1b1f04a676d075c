package io.recourse.topology;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Nothing leaves unsanitized (DESIGN §9): {@code planted-secrets.jsonl} puts fake secrets into
 * every free-text field and every header of frames, controls, acks, run requests and route
 * configurations; after the whole topology has run (timers included), no planted secret is in
 * any topic Recourse wrote other than the DLQ (keys, values, header names and values —
 * repartition and changelog topics included), in any state store, in the metrics scrape or in
 * the log.
 *
 * <p>Not planted (DESIGN §9 keeps them verbatim, as keys or correlation ids): {@link #VERBATIM}.
 */
public class PlantedSecretsLeakTest {

    /** Fields DESIGN §9 keeps as sent; the corpus plants nothing in them. */
    public static final List<String> VERBATIM = List.of("session_id", "prompt_generation", "workspace_id", "run_id",
            "dynamic_profile_id", "execution_profile_id", "agent_profile_id", "task_id", "command_id", "request_id");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

    private record Planted(String topic, byte[] key, byte[] value, RecordHeaders headers, List<String> secrets) {
    }

    private static List<Planted> corpus() throws IOException {
        List<Planted> out = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(PlantedSecretsLeakTest.class.getResourceAsStream("/planted-secrets.jsonl"))) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = JSON.readTree(line);
                RecordHeaders headers = new RecordHeaders();
                n.path("headers").fields().forEachRemaining(h -> headers.add(h.getKey(), h.getValue().asText().getBytes(StandardCharsets.UTF_8)));
                List<String> secrets = new ArrayList<>();
                n.path("planted").forEach(s -> secrets.add(s.asText()));
                out.add(new Planted(n.get("topic").asText(), n.get("key").asText().getBytes(StandardCharsets.UTF_8),
                        JSON.writeValueAsBytes(n.get("value")), headers, secrets));
            }
        }
        return out;
    }

    private static String topic(Topics topics, String name) {
        return switch (name) {
            case "frames" -> topics.agentFrames().name();
            case "session-controls" -> topics.sessionControls().name();
            case "kanban-acks" -> topics.kanbanDispatchAcks().name();
            case "run-requests" -> topics.officeRunRequests().name();
            case "run-controls" -> topics.officeRunControls().name();
            case "office-acks" -> topics.officeDispatchAcks().name();
            case "route-config" -> topics.routeConfig().name();
            default -> throw new IllegalArgumentException("unknown topic in the corpus: " + name);
        };
    }

    @Test
    public void no_planted_secret_leaves_recourse_outside_the_dlq() throws IOException {
        List<Planted> corpus = corpus();
        Set<String> secrets = new LinkedHashSet<>();
        corpus.forEach(p -> secrets.addAll(p.secrets()));
        assertThat(secrets).hasSizeGreaterThanOrEqualTo(28);

        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        root.addAppender(log);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RecourseConfig config = RecourseConfig.defaults();
        Topics topics = Topics.from(config);
        Properties props = new Properties();
        java.nio.file.Path stateDir = java.nio.file.Files.createTempDirectory("recourse-leak-test");
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-leak-test",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092", StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
        List<String> found = new ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(
                RecourseTopology.build(config, RecourseTopology.Options.with(new RecourseMeters(registry))), props, T0)) {
            Map<String, TestInputTopic<byte[], byte[]>> inputs = new java.util.HashMap<>();
            long offset = 0;
            for (Planted p : corpus) {
                TestInputTopic<byte[], byte[]> in = inputs.computeIfAbsent(topic(topics, p.topic()),
                        t -> driver.createInputTopic(t, new ByteArraySerializer(), new ByteArraySerializer()));
                in.pipeInput(new TestRecord<>(p.key(), p.value(), p.headers(), T0.plusMillis(offset++)));
            }
            for (int i = 0; i < 12; i++) {
                driver.advanceWallClockTime(Duration.ofSeconds(10));
            }

            Set<String> written = driver.producedTopicNames();
            assertThat(written).as("the topology wrote outputs, repartition and changelog topics")
                    .contains(topics.classifications().name(), topics.kanbanRecoveryState().name(),
                            topics.officeRunState().name(), topics.routeConfigValidated().name())
                    .anyMatch(t -> t.endsWith("-repartition")).anyMatch(t -> t.endsWith("-changelog"));
            for (String t : written) {
                if (t.equals(topics.dlq().name())) {
                    continue;
                }
                for (TestRecord<byte[], byte[]> r : driver.createOutputTopic(t, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer()).readRecordsToList()) {
                    StringBuilder text = new StringBuilder(t).append(' ').append(latin1(r.key())).append(' ')
                            .append(latin1(r.value()));
                    for (Header h : r.headers()) {
                        text.append(' ').append(h.key()).append('=').append(latin1(h.value()));
                    }
                    scan(secrets, "topic " + t, text.toString(), found);
                }
            }
            for (Map.Entry<String, StateStore> e : driver.getAllStateStores().entrySet()) {
                scan(secrets, "store " + e.getKey(), storeText(e.getValue()), found);
            }
        }
        scan(secrets, "metrics", registry.scrape(), found);
        root.detachAppender(log);
        StringBuilder logged = new StringBuilder();
        for (ILoggingEvent e : log.list) {
            logged.append(e.getFormattedMessage()).append('\n');
            if (e.getThrowableProxy() != null) {
                logged.append(e.getThrowableProxy().getMessage()).append('\n');
            }
        }
        scan(secrets, "log", logged.toString(), found);

        assertThat(found).as("planted secrets found outside the DLQ").isEmpty();
    }

    private static void scan(Set<String> secrets, String where, String text, List<String> found) {
        for (String s : secrets) {
            if (text.contains(s)) {
                found.add(s + " in " + where);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static String storeText(StateStore store) {
        StringBuilder out = new StringBuilder();
        if (store instanceof KeyValueStore<?, ?> kv) {
            try (KeyValueIterator<Object, Object> it = ((KeyValueStore<Object, Object>) kv).all()) {
                it.forEachRemaining(e -> out.append(text(e.key)).append(' ').append(text(e.value)).append('\n'));
            }
        } else if (store instanceof WindowStore<?, ?> w) {
            try (KeyValueIterator<?, ?> it = ((WindowStore<Object, Object>) w).all()) {
                it.forEachRemaining(e -> {
                    KeyValue<?, ?> kv2 = (KeyValue<?, ?>) e;
                    out.append(text(kv2.key)).append(' ').append(text(kv2.value)).append('\n');
                });
            }
        }
        return out.toString();
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? latin1(b) : String.valueOf(o);
    }

    private static String latin1(byte[] b) {
        return b == null ? "" : new String(b, StandardCharsets.ISO_8859_1);
    }
}
