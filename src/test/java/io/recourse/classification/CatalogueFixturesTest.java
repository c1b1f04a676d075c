package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's own fixtures ({@code catalogue/fixtures.v1.jsonl}, signature-line format plus
 * {@code negative_for} and optional {@code confidence}, {@code rule_id}, {@code retry_after},
 * {@code reset_at} expectations): real-world shapes of every agent and provider family the corpus
 * lacks, and a positive and a negative fixture for every code of DESIGN §5.1.
 */
public class CatalogueFixturesTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    public static final String FIXTURES = "catalogue/fixtures.v1.jsonl";

    public static Stream<Arguments> fixtures() {
        return SignatureFixtures.read(FIXTURES).stream().map(l -> Arguments.of(Named.of(l.toString(), l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    public void classifiesTheFixtureAsExpected(Line line) {
        JsonNode expected = line.raw().path("expected");
        if (line.expected() == null) {
            Evidence completed = SignatureFixtures.completedTurn(line);
            assertThat(CLASSIFIER.classify(completed)).as("%s: %s", line.id(), CLASSIFIER.explain(completed).verdict())
                    .isEmpty();
            return;
        }
        Evidence failed = SignatureFixtures.failedTurn(line);
        Optional<Classification> c = CLASSIFIER.classify(failed);
        String verdict = CLASSIFIER.explain(failed).verdict();
        assertThat(c).as("%s: %s", line.id(), verdict).isPresent();
        assertThat(c.get().code()).as("%s: %s", line.id(), verdict).isEqualTo(line.expected());
        assertThat(c.get().errorClass().wire()).isEqualTo(expected.path("class").asText());
        if (expected.has("confidence")) {
            assertThat(c.get().confidence().wire()).as("confidence").isEqualTo(expected.get("confidence").asText());
        }
        if (expected.has("rule_id")) {
            assertThat(c.get().ruleId()).isEqualTo(expected.get("rule_id").asText());
        }
        assertHint(c.get().retryAfter(), expected, "retry_after");
        assertHint(c.get().resetAt(), expected, "reset_at");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Code.class)
    public void everyCodeHasAPositiveAndANegativeFixture(Code code) {
        List<Line> all = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        all.addAll(SignatureFixtures.read(FIXTURES));
        assertThat(all).as("positive fixtures of %s", code.wire())
                .anyMatch(l -> l.expected() == code);
        assertThat(SignatureFixtures.read(FIXTURES)).as("negative fixtures of %s", code.wire())
                .anyMatch(l -> code.wire().equals(l.raw().path("negative_for").asText(null)) && l.expected() != code);
    }

    private static void assertHint(Instant actual, JsonNode expected, String name) {
        if (!expected.has(name)) {
            return;
        }
        if (expected.get(name).isNull()) {
            assertThat(actual).as(name).isNull();
        } else {
            assertThat(actual).as(name).isCloseTo(Instant.parse(expected.get(name).asText()), within(1, ChronoUnit.SECONDS));
        }
    }
}
