package io.recourse.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.runtime.RecourseConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** DESIGN §3: whatever bytes arrive, the ingress stage never throws and dead-letters what it rejects, bytes intact. */
class IngressProperties {

    private static TopologyTestDriver driver;
    private static TestInputTopic<byte[], byte[]> frames;
    private static TestOutputTopic<byte[], byte[]> dlq;

    @BeforeContainer
    static void start() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.FRAME_MAX_BYTES, "512"));
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "ingress-properties", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        driver = new TopologyTestDriver(RecourseTopology.build(config), props);
        frames = driver.createInputTopic("recourse.agent-frames", new ByteArraySerializer(), new ByteArraySerializer());
        dlq = driver.createOutputTopic("recourse.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterContainer
    static void stop() {
        driver.close();
    }

    @Property(tries = 300)
    void arbitrary_bytes_are_dead_lettered_unchanged_with_a_reason(@ForAll @Size(max = 1024) byte[] key,
            @ForAll @Size(max = 1024) byte[] value) {
        frames.pipeInput(key, value);

        // arbitrary bytes are (practically) never a valid frame whose key matches: each lands in the DLQ
        List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).key()).isEqualTo(key);
        assertThat(dead.get(0).value()).isEqualTo(value);
        assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.ERROR_CODE)).isNotBlank();
    }

    @Property(tries = 100)
    void a_valid_frame_is_admitted_for_any_session_id_even_with_slashes(@ForAll("sessionIds") String sessionId,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 1_000_000) int generation) {
        String json = "{\"session_id\":" + quote(sessionId) + ",\"prompt_generation\":" + generation
                + ",\"seq\":1,\"occurred_at\":\"2026-11-30T08:00:00Z\",\"source\":\"stderr\",\"payload\":{\"line\":\"x\"}}";

        frames.pipeInput((sessionId + "/" + generation).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                json.getBytes(java.nio.charset.StandardCharsets.UTF_8));

        assertThat(dlq.readRecordsToList()).isEmpty();
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> sessionIds() {
        return net.jqwik.api.Arbitraries.strings().alpha().numeric().withChars('/', '-', '_', ':').ofMinLength(1).ofMaxLength(40);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
