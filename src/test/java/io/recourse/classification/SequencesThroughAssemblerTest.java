package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.taxonomy.Classification;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code corpus/sequences.jsonl} entry end to end through the real pipeline — the frame
 * parser, the offline evidence assembler and this catalogue's {@link Classifier} — reproduces the
 * expected outcome, code, class, replay safety and validated hints (1 s tolerance).
 */
public class SequencesThroughAssemblerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    public static Stream<Arguments> sequences() throws Exception {
        List<Arguments> out = new ArrayList<>();
        FrameParser parser = new FrameParser();
        for (JsonNode line : SignatureFixtures.readJson("corpus/sequences.jsonl")) {
            List<Frame> frames = new ArrayList<>();
            for (JsonNode f : line.get("frames")) {
                String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                frames.add(parser.parse(key, JSON.writeValueAsBytes(f)));
            }
            out.add(Arguments.of(Named.of(line.get("name").asText(), frames), line.get("expected")));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    public void theClassifiedTurnMatchesTheSequenceExpectation(List<Frame> frames, JsonNode expected) {
        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(frames, CLASSIFIER);

        if (frames.stream().allMatch(f -> f.promptGeneration() == 0)) {
            assertThat(outcomes).isEmpty(); // setup and session/load replay only: never classified
            return;
        }
        assertThat(outcomes).hasSize(1);
        TurnOutcome o = outcomes.get(0);
        assertThat(o.outcome().wire()).isEqualTo(expected.path("outcome").asText());
        assertThat(o.replaySafe()).as("replay_safe").isEqualTo(expected.path("replay_safe").asBoolean());
        if (expected.path("code").isNull()) {
            assertThat(o.classification()).isNull();
            return;
        }
        Classification c = o.classification();
        assertThat(c.code().wire()).isEqualTo(expected.path("code").asText());
        assertThat(c.errorClass().wire()).isEqualTo(expected.path("class").asText());
        assertThat(c.catalogueVersion()).isEqualTo("provider-errors.v2");
        assertHint(c.retryAfter(), expected.path("retry_after"), "retry_after");
        assertHint(c.resetAt(), expected.path("reset_at"), "reset_at");
    }

    private static void assertHint(Instant actual, JsonNode expected, String name) {
        if (expected.isNull() || expected.isMissingNode()) {
            assertThat(actual).as(name).isNull();
        } else {
            assertThat(actual).as(name).isNotNull();
            assertThat(actual).as(name).isCloseTo(Instant.parse(expected.asText()), within(1, ChronoUnit.SECONDS));
        }
    }
}
