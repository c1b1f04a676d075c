package io.recourse.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.recourse.runtime.RecourseConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** DESIGN §3: whatever bytes arrive, the ingress stage never throws and dead-letters what it rejects, bytes intact. */
class IngressProperties {

    /** Fixed so a failure reproduces on every machine. */
    private static final long SEED = 0x494E_4752_0003L;

    private static TopologyTestDriver driver;
    private static TestInputTopic<byte[], byte[]> frames;
    private static TestOutputTopic<byte[], byte[]> dlq;

    @BeforeAll
    static void start() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.FRAME_MAX_BYTES, "512"));
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "ingress-properties", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        driver = new TopologyTestDriver(RecourseTopology.build(config), props);
        frames = driver.createInputTopic("recourse.agent-frames", new ByteArraySerializer(), new ByteArraySerializer());
        dlq = driver.createOutputTopic("recourse.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterAll
    static void stop() {
        driver.close();
    }

    @Test
    void arbitrary_bytes_are_dead_lettered_unchanged_with_a_reason() {
        qt().withFixedSeed(SEED).withExamples(300).forAll(bytes(), bytes()).checkAssert((key, value) -> {
            frames.pipeInput(key, value);

            // arbitrary bytes are (practically) never a valid frame whose key matches: each lands in the DLQ
            List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).key()).isEqualTo(key);
            assertThat(dead.get(0).value()).isEqualTo(value);
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.ERROR_CODE)).isNotBlank();
        });
    }

    @Test
    void a_valid_frame_is_admitted_for_any_session_id_even_with_slashes() {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_:";
        Gen<String> sessionIds = lists().of(integers().between(0, alphabet.length() - 1)).ofSizeBetween(1, 40)
                .map(ix -> ix.stream().map(i -> String.valueOf(alphabet.charAt(i))).reduce("", String::concat));
        qt().withFixedSeed(SEED).withExamples(100).forAll(sessionIds, integers().between(0, 1_000_000))
                .checkAssert((sessionId, generation) -> {
                    String json = "{\"session_id\":\"" + sessionId + "\",\"prompt_generation\":" + generation
                            + ",\"seq\":1,\"occurred_at\":\"2026-11-30T08:00:00Z\",\"source\":\"stderr\",\"payload\":{\"line\":\"x\"}}";

                    frames.pipeInput((sessionId + "/" + generation).getBytes(StandardCharsets.UTF_8),
                            json.getBytes(StandardCharsets.UTF_8));

                    assertThat(dlq.readRecordsToList()).isEmpty();
                });
    }

    private static Gen<byte[]> bytes() {
        return lists().of(integers().between(-128, 127)).ofSizeBetween(0, 1024).map(list -> {
            byte[] b = new byte[list.size()];
            for (int i = 0; i < b.length; i++) {
                b[i] = list.get(i).byteValue();
            }
            return b;
        });
    }
}
