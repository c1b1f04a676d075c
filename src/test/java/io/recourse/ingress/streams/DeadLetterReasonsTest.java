package io.recourse.ingress.streams;

import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.stderr;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.EvidenceDriver;
import io.recourse.evidence.streams.EvidenceTopologyTest;
import io.recourse.ingress.DlqReason;
import io.recourse.kit.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DESIGN §3 with the real {@link io.recourse.ingress.FrameParser}: every DLQ reason reaches {@code recourse.dlq} under its wire code. */
public class DeadLetterReasonsTest {

    private final EvidenceDriver d = new EvidenceDriver(EvidenceTopologyTest.CLASSIFIER,
            Map.of(RecourseConfig.FRAME_MAX_BYTES, "2048"));

    @AfterEach
    public void close() {
        d.close();
    }

    /** One record per reason: key, value. */
    private static Map<DlqReason, String[]> samples() {
        Map<DlqReason, String[]> m = new EnumMap<>(DlqReason.class);
        ObjectNode good = stderr("s1", 1, 1, "boom");
        m.put(DlqReason.INVALID_JSON, new String[] {"s1/1", "{\"session_id\": oops"});
        ObjectNode missing = good.deepCopy();
        missing.remove("seq");
        m.put(DlqReason.MISSING_FIELD, new String[] {"s1/1", missing.toString()});
        ObjectNode invalid = good.deepCopy();
        invalid.put("source", "carrier_pigeon");
        m.put(DlqReason.INVALID_FIELD, new String[] {"s1/1", invalid.toString()});
        m.put(DlqReason.KEY_MISMATCH, new String[] {"s1/2", good.toString()});
        ObjectNode big = good.deepCopy();
        big.put("padding", "x".repeat(4096));
        m.put(DlqReason.OVERSIZED, new String[] {"s1/1", big.toString()});
        ObjectNode dynamic = good.deepCopy();
        dynamic.put("profile_kind", "dynamic");
        m.put(DlqReason.MISSING_ROUTING_IDENTITY, new String[] {"s1/1", dynamic.toString()});
        m.put(DlqReason.INVALID_KEY, new String[] {"no-generation-here", good.toString()});
        return m;
    }

    @Test
    public void every_dlq_reason_has_a_sample_here() {
        assertThat(samples().keySet()).containsExactlyInAnyOrder(DlqReason.values());
    }

    @Test
    public void every_rejected_frame_reaches_the_dlq_with_its_reason_code_and_original_bytes() {
        for (Map.Entry<DlqReason, String[]> e : samples().entrySet()) {
            String key = e.getValue()[0];
            String value = e.getValue()[1];

            d.pipe(key, value, T0);

            TestRecord<byte[], byte[]> dead = d.dlq.readRecord();
            assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).as(e.getKey().name()).isEqualTo(e.getKey().wire());
            assertThat(dead.key()).isEqualTo(key.getBytes(StandardCharsets.UTF_8));
            assertThat(dead.value()).isEqualTo(value.getBytes(StandardCharsets.UTF_8));
            assertThat(d.dlq.isEmpty()).isTrue();
        }
        assertThat(d.sessionEvents()).as("no rejected frame reaches the evidence stage").isEmpty();
    }
}
