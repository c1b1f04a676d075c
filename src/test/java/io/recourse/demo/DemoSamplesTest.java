package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.Classifier;
import io.recourse.classification.OfflineAssembler;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The demo's bundled samples are valid frames and get the outcome each line expects (offline, with the shipped catalogue). */
public class DemoSamplesTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    public static Stream<DemoSamples.Sample> samples() {
        return DemoSamples.load().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    public void each_sample_gets_its_expected_outcome(DemoSamples.Sample sample) throws Exception {
        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(parse(sample), CLASSIFIER);

        assertThat(outcomes).as(sample.name()).hasSize(1);
        assertThat(sample.differences(outcomes.get(0))).as(sample.name()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    public void each_sample_keeps_its_expected_outcome_when_shifted_onto_another_clock(DemoSamples.Sample sample) throws Exception {
        DemoSamples.Sample shifted = sample.shifted(Duration.ofDays(200).plusMillis(123));

        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(parse(shifted), CLASSIFIER);

        assertThat(shifted.differences(outcomes.get(0))).as(sample.name()).isEmpty();
    }

    @Test
    public void the_samples_cover_the_agents_and_failures_the_demo_shows() {
        List<DemoSamples.Sample> all = DemoSamples.load();

        assertThat(all).extracting(DemoSamples.Sample::agentType)
                .contains("claude-acp", "codex-acp", "gemini-cli", "opencode-acp");
        assertThat(all).extracting(s -> s.expected().outcome()).contains("completed", "cancelled", "failed");
        assertThat(all).extracting(s -> s.expected().code()).contains("provider_overloaded", "model_capacity", "rate_limited",
                "quota_limited", "auth_required", "agent_transport_lost", "provider_not_configured");
        assertThat(all).anySatisfy(s -> assertThat(s.expected().retryAfter()).isNotNull());
        assertThat(all).anySatisfy(s -> assertThat(s.expected().resetAt()).isNotNull());
        assertThat(all).extracting(DemoSamples.Sample::sessionId).doesNotHaveDuplicates();
    }

    private static List<Frame> parse(DemoSamples.Sample sample) throws FrameRejectedException {
        FrameParser parser = new FrameParser();
        List<Frame> frames = new ArrayList<>();
        for (ObjectNode f : sample.frames()) {
            String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
            frames.add(parser.parse(key, f.toString().getBytes(StandardCharsets.UTF_8)));
        }
        return frames;
    }
}
