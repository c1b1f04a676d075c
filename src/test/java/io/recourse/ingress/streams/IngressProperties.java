package io.recourse.ingress.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.DeadLetters;
import io.recourse.topology.RecourseTopology;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/** DESIGN §3 on the topology: whatever bytes arrive, ingress never throws and dead-letters what it rejects, bytes intact. */
public class IngressProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x494E_4752_0005L;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> frames;
    private TestOutputTopic<byte[], byte[]> dlq;

    @BeforeEach
    public void start() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.FRAME_MAX_BYTES, "512"));
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "ingress-properties", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"));
        driver = new TopologyTestDriver(RecourseTopology.build(config, RecourseTopology.Options.with(RecourseMeters.global())), props);
        frames = driver.createInputTopic("recourse.agent-frames", new ByteArraySerializer(), new ByteArraySerializer());
        dlq = driver.createOutputTopic("recourse.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    public void stop() {
        driver.close();
    }

    @Test
    public void arbitraryBytesAreDeadLetteredUnchangedWithAReason() {
        theory(300).forAll(bytes(), bytes()).checkAssert((key, value) -> {
            frames.pipeInput(key, value);

            // arbitrary bytes are never a valid frame whose key matches it: each one lands in the DLQ
            List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).key()).isEqualTo(key);
            assertThat(dead.get(0).value()).isEqualTo(value);
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.ERROR_CODE)).isNotBlank();
        });
    }

    @Test
    public void aValidFrameIsAdmittedForAnySessionIdEvenWithSlashes() {
        Gen<String> sessionIds = strings().betweenCodePoints('-', 'z').ofLengthBetween(1, 40)
                .assuming(s -> !s.isBlank() && !s.contains("\\"));
        theory(100).forAll(sessionIds, integers().between(0, 1_000_000)).checkAssert((sessionId, generation) -> {
            String json = "{\"session_id\":\"" + sessionId.replace("\"", "\\\"") + "\",\"prompt_generation\":" + generation
                    + ",\"seq\":1,\"occurred_at\":\"2026-11-30T08:00:00Z\",\"source\":\"stderr\",\"payload\":{\"line\":\"x\"}}";

            frames.pipeInput((sessionId + "/" + generation).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));

            assertThat(dlq.readRecordsToList()).as("frame %s", json).isEmpty();
        });
    }

    @Test
    public void aValidFrameIsAdmittedForANonAsciiSessionId() {
        Gen<String> sessionIds = strings().betweenCodePoints('-', 0x2FFF).ofLengthBetween(1, 20)
                // C1 controls (U+0080..U+009F) are refused like any control character (InputBounds)
                .assuming(s -> !s.isBlank() && !s.contains("\\") && !s.contains("\"") && s.chars().anyMatch(c -> c >= 0x80)
                        && s.chars().noneMatch(Character::isISOControl));
        theory(100).forAll(sessionIds, integers().between(0, 1_000_000)).checkAssert((sessionId, generation) -> {
            String json = "{\"session_id\":\"" + sessionId + "\",\"prompt_generation\":" + generation
                    + ",\"seq\":1,\"occurred_at\":\"2026-11-30T08:00:00Z\",\"source\":\"stderr\",\"payload\":{\"line\":\"x\"}}";

            frames.pipeInput((sessionId + "/" + generation).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));

            assertThat(dlq.readRecordsToList()).as("frame %s", json).isEmpty();
        });
    }

    @Test
    public void aKeyThatIsNotUtf8IsDeadLetteredAsAnInvalidKey() {
        theory(100).forAll(integers().between(0, 12), integers().between(0x80, 0xFF)).checkAssert((at, bad) -> {
            String json = "{\"session_id\":\"sess-1234567\",\"prompt_generation\":3,\"seq\":1,"
                    + "\"occurred_at\":\"2026-11-30T08:00:00Z\",\"source\":\"stderr\",\"payload\":{\"line\":\"x\"}}";
            byte[] key = "sess-1234567/3".getBytes(StandardCharsets.UTF_8);
            key[at] = (byte) (int) bad; // a lone continuation byte or a lead byte followed by ASCII: never well-formed

            frames.pipeInput(key, json.getBytes(StandardCharsets.UTF_8));

            List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).key()).isEqualTo(key);
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_key");
        });
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static Gen<byte[]> bytes() {
        return lists().of(integers().between(-128, 127)).ofSizeBetween(0, 700).map(list -> {
            byte[] out = new byte[list.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (int) list.get(i);
            }
            return out;
        });
    }
}
