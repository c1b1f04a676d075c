package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.ErrorClass;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every line of {@code corpus/signatures.jsonl}, following the corpus README's
 * "How to test": a line with a code is classified as a failed turn of its signals and must get
 * that code and class (fallback codes: no rule may match); a line without one must leave the turn
 * completed when it ends with {@code end_turn}.
 */
public class SignatureCorpusTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    public static Stream<Arguments> lines() {
        List<Line> lines = SignatureFixtures.read("corpus/signatures.jsonl");
        assertThat(lines).hasSize(172);
        return lines.stream().map(l -> Arguments.of(Named.of(l.toString(), l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    public void classifiesTheLineAsTheCorpusExpects(Line line) {
        if (line.expected() == null) {
            Evidence completed = SignatureFixtures.completedTurn(line);
            assertThat(CLASSIFIER.classify(completed))
                    .as("%s must not fail a turn ending with end_turn: %s", line.id(), CLASSIFIER.explain(completed).verdict())
                    .isEmpty();
            return;
        }
        Evidence failed = SignatureFixtures.failedTurn(line);
        Optional<Classification> c = CLASSIFIER.classify(failed);
        assertThat(c).as("%s: %s", line.id(), CLASSIFIER.explain(failed).verdict()).isPresent();
        assertThat(c.get().code()).as("%s: %s", line.id(), CLASSIFIER.explain(failed).verdict()).isEqualTo(line.expected());
        assertThat(c.get().errorClass()).isEqualTo(line.expected().errorClass());
        assertThat(c.get().catalogueVersion()).isEqualTo("provider-errors.v2");
        if (line.expected().errorClass() == ErrorClass.UNCLASSIFIED) {
            assertThat(c.get().ruleId()).as("%s: no rule may match", line.id()).startsWith("fallback.");
        } else {
            assertThat(CLASSIFIER.catalogue().rule(c.get().ruleId())).isPresent();
        }
    }
}
