package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.ErrorClass;
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
 * The catalogue's own fixtures ({@code catalogue/fixtures.v2.jsonl}, signature-line format plus
 * {@code negative_for}, {@code look_alike_for}, {@code provider_id} and optional {@code confidence}, {@code rule_id}, {@code retry_after},
 * {@code reset_at} expectations): real-world shapes of every agent and provider family the corpus
 * lacks, and a positive and a negative fixture for every code of DESIGN §5.1.
 */
public class CatalogueFixturesTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    static final String FIXTURES = "catalogue/fixtures.v2.jsonl";

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

    /**
     * Confidence is earned (DESIGN §5.2): every high-confidence transient rule — an automatic retry —
     * has at least three look-alike fixtures ({@code look_alike_for}: its id) that end neither in
     * its code nor by it, so the fixture tests show it cannot fire on a normal answer, tool output
     * or thought. Every {@code look_alike_for} names a shipped rule.
     */
    @org.junit.jupiter.api.Test
    void everyHighConfidenceTransientRuleHasThreeLookAlikes() {
        Catalogue shipped = Catalogue.loadDefault();
        List<Line> lines = SignatureFixtures.read(FIXTURES);
        java.util.Map<String, Long> lookAlikes = lines.stream().filter(l -> l.raw().path("look_alike_for").isTextual())
                .collect(java.util.stream.Collectors.groupingBy(l -> l.raw().get("look_alike_for").asText(),
                        java.util.stream.Collectors.counting()));

        assertThat(lookAlikes.keySet()).as("look_alike_for names shipped rules")
                .allMatch(id -> shipped.rule(id).isPresent());
        for (Rule r : shipped.rules()) {
            if (r.code().errorClass() == ErrorClass.TRANSIENT && r.confidence() == Confidence.HIGH) {
                assertThat(lookAlikes.getOrDefault(r.id(), 0L)).as("look-alike fixtures of %s", r.id()).isGreaterThanOrEqualTo(3);
            }
        }
        for (Line l : lines) {
            if (l.raw().path("look_alike_for").isTextual()) {
                Rule r = shipped.rule(l.raw().get("look_alike_for").asText()).orElseThrow();
                assertThat(l.expected()).as("%s is a look-alike of %s", l.id(), r.id()).isNotEqualTo(r.code());
            }
        }
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
