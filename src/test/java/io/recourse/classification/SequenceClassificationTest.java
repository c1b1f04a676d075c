package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The classifier's part of every {@code corpus/sequences.jsonl} entry: the
 * generation-1 turn, reduced to evidence by {@link SignatureFixtures#sequenceTurn}, gets the
 * expected code and class (or none when it completed or was cancelled), the expected validated
 * {@code retry_after} / {@code reset_at} (1 s tolerance), and effect flags that give the expected
 * {@code replay_safe}.
 */
public class SequenceClassificationTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    public static Stream<Arguments> sequences() {
        return SignatureFixtures.readJson("corpus/sequences.jsonl").stream()
                .map(s -> Arguments.of(Named.of(s.path("name").asText(), s)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    public void classifiesTheTurnAsTheSequenceExpects(JsonNode sequence) {
        JsonNode expected = sequence.path("expected");
        Optional<Evidence> turn = SignatureFixtures.sequenceTurn(sequence, 1);
        if (turn.isEmpty()) {
            // generation 0 only (setup and session/load replay): never classified
            assertThat(expected.path("code").isNull()).isTrue();
            return;
        }
        Evidence evidence = turn.get();
        Optional<Classification> c = CLASSIFIER.classify(evidence);
        String verdict = CLASSIFIER.explain(evidence).verdict();
        if (expected.path("code").isNull()) {
            assertThat(c).as(verdict).isEmpty();
        } else {
            assertThat(c).as(verdict).isPresent();
            assertThat(c.get().code().wire()).as(verdict).isEqualTo(expected.path("code").asText());
            assertThat(c.get().errorClass().wire()).isEqualTo(expected.path("class").asText());
            assertHint(c.get().retryAfter(), expected.path("retry_after"), "retry_after");
            assertHint(c.get().resetAt(), expected.path("reset_at"), "reset_at");
        }
        boolean replaySafe = !evidence.assistantOutputSeen() && !evidence.toolActivitySeen();
        assertThat(replaySafe).as("replay_safe").isEqualTo(expected.path("replay_safe").asBoolean());
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
