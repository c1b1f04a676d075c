package io.recourse.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.DlqReason;
import io.recourse.kit.DeadLetters;
import io.recourse.ingress.streams.FrameAdmission;
import io.recourse.kit.Topics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ingress stage of DESIGN §3: bad frames go to the DLQ, and the stream keeps going. */
public class RecourseTopologyTest {

    private static final String GOOD = """
            {"session_id":"s1","prompt_generation":1,"seq":7,"occurred_at":"2026-11-30T08:00:00Z",
             "source":"stderr","payload":{"line":"boom"},"agent_type":"codex-acp"}""";

    private final RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.FRAME_MAX_BYTES, "1024"));
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> frames;
    private TestOutputTopic<byte[], byte[]> dlq;

    @BeforeEach
    public void start() {
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-test", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        driver = new TopologyTestDriver(RecourseTopology.build(config, RecourseTopology.Options.with(RecourseMeters.global())), props);
        Topics topics = Topics.from(config);
        frames = driver.createInputTopic(topics.agentFrames().name(), new ByteArraySerializer(), new ByteArraySerializer());
        dlq = driver.createOutputTopic(topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    public void stop() {
        driver.close();
    }

    @Test
    public void a_frame_that_is_not_json_goes_to_the_dlq_with_its_original_bytes_and_error_headers_but_not_its_headers() {
        byte[] key = bytes("s1/1");
        byte[] value = bytes("{not json");
        Headers original = new RecordHeaders().add("gateway", bytes("gw-1")).add("authorization", bytes("Bearer planted"));

        frames.pipeInput(new TestRecord<>(key, value, original));

        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(dead.key()).isEqualTo(key);
        assertThat(dead.value()).isEqualTo(value);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_json");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).isNotBlank();
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("recourse.agent-frames");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_PARTITION)).isEqualTo("0");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_HEADER_COUNT)).isEqualTo("2");
        assertThat(dead.headers().lastHeader("gateway")).isNull();
        assertThat(dead.headers().lastHeader("authorization")).isNull();
    }

    @Test
    public void the_stream_keeps_processing_the_records_after_a_bad_one() {
        frames.pipeInput(bytes("s1/1"), bytes("{not json"));
        frames.pipeInput(bytes("s1/1"), bytes(GOOD));
        frames.pipeInput(bytes("s1/2"), bytes("[1, 2"));

        List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
        assertThat(dead).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.SOURCE_OFFSET)).containsExactly("0", "2");
    }

    @Test
    public void a_valid_frame_does_not_reach_the_dlq() {
        frames.pipeInput(bytes("s1/1"), bytes(GOOD));

        assertThat(dlq.isEmpty()).isTrue();
    }

    @Test
    public void an_oversized_frame_goes_to_the_dlq_with_its_bytes() {
        byte[] big = new byte[1025];
        java.util.Arrays.fill(big, (byte) ' ');

        frames.pipeInput(bytes("s1/1"), big);

        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo(DlqReason.OVERSIZED.wire());
        assertThat(dead.value()).isEqualTo(big);
    }

    @Test
    public void a_frame_whose_key_disagrees_with_its_body_goes_to_the_dlq() {
        frames.pipeInput(bytes("s1/2"), bytes(GOOD));

        assertThat(DeadLetters.header(dlq.readRecord().headers(), DeadLetters.ERROR_CODE)).isEqualTo("key_mismatch");
    }

    @Test
    public void a_key_that_is_not_utf8_goes_to_the_dlq_with_the_key_as_received() {
        byte[] key = {(byte) 0xFF, (byte) 0xFE, '/', '1'};

        frames.pipeInput(key, bytes(GOOD));

        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(dead.key()).isEqualTo(key);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_key");
    }

    @Test
    public void a_rejection_from_the_admission_step_is_dead_lettered_with_its_reason() {
        driver.close();
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-test", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        driver = new TopologyTestDriver(RecourseTopology.build(config, RecourseTopology.Options.with(RecourseMeters.global())
                .withAdmission((key, value) -> {
                    throw new FrameAdmission.FrameRejection("missing_routing_identity", "dynamic frame without workspace_id");
                })), props);
        frames = driver.createInputTopic("recourse.agent-frames", new ByteArraySerializer(), new ByteArraySerializer());
        dlq = driver.createOutputTopic("recourse.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());

        frames.pipeInput(bytes("s1/1"), bytes(GOOD));

        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("missing_routing_identity");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).isEqualTo("dynamic frame without workspace_id");
    }

    @Test
    public void every_node_has_an_explicit_name() {
        String description = RecourseTopology.build(config, RecourseTopology.Options.with(RecourseMeters.global())).describe().toString();

        assertThat(description).contains(RecourseTopology.FRAMES_SOURCE, RecourseTopology.INGRESS_PROCESSOR,
                RecourseTopology.DLQ_SINK, RecourseTopology.FRAMES_ADMITTED);
        assertThat(description).doesNotContain("KSTREAM-", "KTABLE-", "KSTREAM-SOURCE");
    }

    @Test
    public void configured_topic_names_are_used_by_the_topology() {
        RecourseConfig renamed = RecourseConfig.of(Map.of(RecourseConfig.TOPIC_AGENT_FRAMES, "gw.frames",
                RecourseConfig.TOPIC_DLQ, "ops.dlq"));

        String description = RecourseTopology.build(renamed, RecourseTopology.Options.with(RecourseMeters.global())).describe().toString();

        assertThat(description).contains("topics: [gw.frames]", "topic: ops.dlq");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
