package io.recourse.topology;

import static io.recourse.evidence.streams.EvidenceDriver.MAPPER;
import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.frame;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.Classification;
import io.recourse.classification.Classifier;
import io.recourse.evidence.streams.EvidenceDriver;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * No record can stop a stream thread (DESIGN §3), here through the timing hints of the shipped
 * catalogue: a provider error whose JSON text (inside a string, so ingress's number bounds do
 * not see it) carries {@code 1e400}, {@code -1e400}, {@code 1e-400} or a 70-digit integer as
 * its reset is classified without a hint, the valid reset next to it still counts, and the
 * turns after it are classified too.
 */
public class HostileHintNumbersTopologyTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    private static final String HUGE = "1" + "0".repeat(70);

    /** An {@code acp_response} error quoting the provider's usage-limit body, as Codex reports it. */
    private static ObjectNode usageLimit(String session, long seq, String resetFields) {
        String body = "{\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has been reached\","
                + "\"plan_type\":\"free\"," + resetFields + "}}";
        ObjectNode f = frame(session, 1, seq, "acp_response", "{\"jsonrpc\":\"2.0\",\"id\":7}");
        ObjectNode error = ((ObjectNode) f.get("payload")).putObject("error");
        error.put("code", -32603).put("message", "unexpected status 429 Too Many Requests: " + body);
        f.put("agent_type", "codex-acp").put("provider_id", "openai").put("model_id", "gpt-5-codex");
        return f;
    }

    @Test
    public void hostile_reset_numbers_are_no_hint_and_never_stop_processing() {
        Map<String, String> hostile = Map.of(
                "h-inf", "\"resets_in_seconds\":1e400,\"resets_at\":1e400",
                "h-neginf", "\"resets_in_seconds\":-1e400,\"resets_at\":-1e400",
                "h-tiny", "\"resets_in_seconds\":1e-400,\"resets_at\":1e-400",
                "h-huge", "\"resets_in_seconds\":" + HUGE + ",\"resets_at\":-" + HUGE);
        try (EvidenceDriver d = new EvidenceDriver(CLASSIFIER)) {
            for (Map.Entry<String, String> turn : hostile.entrySet()) {
                d.pipe(prompt(turn.getKey(), 1, 1), T0);
                d.pipe(usageLimit(turn.getKey(), 2, turn.getValue()), T0.plusSeconds(2));
            }
            // a hostile reset first, a valid one after it (nested, so read after)
            d.pipe(prompt("h-mixed", 1, 1), T0);
            d.pipe(usageLimit("h-mixed", 2, "\"resets_in_seconds\":1e400,\"detail\":{\"resets_in_seconds\":3600}"),
                    T0.plusSeconds(2));
            // and a plain turn after them all
            d.pipe(prompt("h-after", 1, 1), T0);
            d.pipe(usageLimit("h-after", 2, "\"resets_in_seconds\":600"), T0.plusSeconds(2));

            List<TestRecord<String, Classification>> out = d.classifications.readRecordsToList();
            Map<String, Classification> bySession = out.stream()
                    .collect(Collectors.toMap(r -> r.value().getSessionId(), TestRecord::value));

            assertThat(d.dlq.isEmpty()).as("nothing dead-lettered").isTrue();
            assertThat(bySession).containsOnlyKeys("h-inf", "h-neginf", "h-tiny", "h-huge", "h-mixed", "h-after");
            for (String session : hostile.keySet()) {
                Classification c = bySession.get(session);
                assertThat(c.getCode()).as(session).isEqualTo("quota_limited");
                assertThat(c.getResetAt()).as(session).isNull();
                assertThat(c.getRetryAfter()).as(session).isNull();
            }
            Instant terminal = T0.plusSeconds(2);
            assertThat(bySession.get("h-mixed").getResetAt()).isEqualTo(terminal.plusSeconds(3600));
            assertThat(bySession.get("h-after").getResetAt()).isEqualTo(terminal.plusSeconds(600));
        }
    }
}
