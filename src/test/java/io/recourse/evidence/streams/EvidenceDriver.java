package io.recourse.evidence.streams;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.avro.Classification;
import io.recourse.avro.SessionEvent;
import io.recourse.avro.TurnStateValue;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.classification.TurnClassifier;
import io.recourse.config.RecourseConfig;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.streams.FrameAdmission;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.topology.RecourseTopology;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A TopologyTestDriver over the whole Recourse topology for evidence tests: frames in as JSON
 * envelopes with explicit append timestamps, the classifications, unclassified-evidence, DLQ and
 * the owners' repartition topics out, the turn store and the counters readable.
 */
public final class EvidenceDriver implements AutoCloseable {

    public static final String APP = "recourse-test";
    public static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    public static final ObjectMapper MAPPER = new ObjectMapper();

    public final RecourseConfig config;
    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    public final EvidenceCounters counters = new EvidenceCounters(registry);
    public final TopologyTestDriver driver;
    private final java.nio.file.Path stateDir;
    public final TestInputTopic<byte[], byte[]> frames;
    public final TestOutputTopic<String, Classification> classifications;
    public final TestOutputTopic<String, UnclassifiedEvidence> unclassified;
    public final TestOutputTopic<byte[], byte[]> dlq;
    public final TestOutputTopic<String, SessionEvent> bySession;
    public final TestOutputTopic<String, SessionEvent> byWorkspace;

    public EvidenceDriver(TurnClassifier classifier) {
        this(classifier, Map.of());
    }

    public EvidenceDriver(TurnClassifier classifier, Map<String, String> overrides) {
        Map<String, String> c = new HashMap<>(Map.of(RecourseConfig.APPLICATION_ID, APP));
        c.putAll(overrides);
        config = RecourseConfig.of(c);
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, APP, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        try {
            // own state directory: tests of other classes (and other checkouts) may run at the same time
            stateDir = java.nio.file.Files.createTempDirectory("recourse-ttd");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(RecourseTopology.build(config,
                RecourseTopology.Options.with(new RecourseMeters(counters))
                        .withAdmission(FrameAdmission.parsing(new FrameParser(config.frameMaxBytes()))).withClassifier(classifier)),
                props);
        Topics topics = Topics.from(config);
        frames = driver.createInputTopic(topics.agentFrames().name(), new ByteArraySerializer(), new ByteArraySerializer());
        classifications = driver.createOutputTopic(topics.classifications().name(), new StringDeserializer(),
                AvroSerde.of(Classification.class));
        unclassified = driver.createOutputTopic(topics.unclassifiedEvidence().name(), new StringDeserializer(),
                AvroSerde.of(UnclassifiedEvidence.class));
        dlq = driver.createOutputTopic(topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        bySession = driver.createOutputTopic(repartitionTopic(RecourseTopology.SESSION_EVENTS_BY_SESSION), new StringDeserializer(),
                AvroSerde.of(SessionEvent.class));
        byWorkspace = driver.createOutputTopic(repartitionTopic(RecourseTopology.SESSION_EVENTS_BY_WORKSPACE),
                new StringDeserializer(), AvroSerde.of(SessionEvent.class));
    }

    public static String repartitionTopic(String name) {
        return APP + "-" + name + "-repartition";
    }

    /** Publishes {@code frame} under its own key {@code <session_id>/<prompt_generation>}, appended at {@code at}. */
    public void pipe(ObjectNode frame, Instant at) {
        String key = frame.get("session_id").asText() + "/" + frame.get("prompt_generation").asInt();
        pipe(key, frame.toString(), at);
    }

    public void pipe(String key, String value, Instant at) {
        frames.pipeInput(new TestRecord<>(key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8), at));
    }

    public List<TestRecord<String, SessionEvent>> sessionEvents() {
        return bySession.readRecordsToList();
    }

    public TurnStateValue turn(String turnKey) {
        KeyValueStore<String, TurnStateValue> store = driver.getKeyValueStore(EvidenceTopology.TURN_STORE);
        return store.get(turnKey);
    }

    public double count(String counter) {
        return counters.count(counter);
    }

    /** The SessionEvent branch's simple name, e.g. {@code TurnStarted}. */
    public static String type(SessionEvent e) {
        return e.getEvent().getClass().getSimpleName();
    }

    @Override
    public void close() {
        driver.close();
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ frames

    /** A frame envelope of session {@code session}, generation {@code gen}, concrete claude-acp profile. */
    public static ObjectNode frame(String session, int gen, long seq, String source, String payload) {
        ObjectNode f = MAPPER.createObjectNode();
        f.put("session_id", session);
        f.put("prompt_generation", gen);
        f.put("seq", seq);
        f.put("occurred_at", T0.plusSeconds(seq).toString());
        f.put("source", source);
        try {
            f.set("payload", MAPPER.readTree(payload));
        } catch (Exception e) {
            throw new IllegalArgumentException(payload, e);
        }
        f.put("agent_type", "claude-acp");
        f.put("provider_id", "anthropic");
        f.put("model_id", "claude-sonnet-4-5");
        f.put("profile_kind", "concrete");
        f.put("phase", "streaming");
        return f;
    }

    public static ObjectNode prompt(String session, int gen, long seq) {
        ObjectNode f = frame(session, gen, seq, "acp_request",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"a\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}");
        f.put("phase", "prompt_send");
        f.put("prompt_origin", "user");
        return f;
    }

    public static ObjectNode chunk(String session, int gen, long seq, String text) {
        return frame(session, gen, seq, "acp_update", "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"a\","
                + "\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"" + text + "\"}}}}");
    }

    public static ObjectNode stderr(String session, int gen, long seq, String line) {
        return frame(session, gen, seq, "stderr", "{\"line\":\"" + line + "\"}");
    }

    public static ObjectNode endTurn(String session, int gen, long seq, String stopReason) {
        return frame(session, gen, seq, "acp_response", "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"stopReason\":\"" + stopReason + "\"}}");
    }

    public static ObjectNode error(String session, int gen, long seq, String message) {
        return frame(session, gen, seq, "acp_response",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":\"" + message + "\"}}");
    }

    /** The frame turned into a dynamic-profile frame of workspace {@code workspace}. */
    public static ObjectNode dynamic(ObjectNode f, String workspace) {
        f.put("profile_kind", "dynamic");
        f.put("workspace_id", workspace);
        f.put("run_id", "run-" + f.get("session_id").asText());
        f.put("execution_profile_id", "exec-claude");
        return f;
    }
}
