package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.cli.SignatureFixture;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.FrameParser;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every signature line (corpus and catalogue fixtures) as a whole turn of DESIGN §3 envelopes
 * through the real pipeline — {@link FrameParser}, the offline evidence assembler (real signal
 * extraction, sanitizing, bounds, effect flags) and this catalogue's {@link Classifier}. The
 * envelopes are those of {@link SignatureFixture#frames()} (the same turn {@code recourse
 * catalogue check} runs): the turn opens with {@code prompt_dispatched} (pre-start phase) or the
 * {@code session/prompt} request; a failing line without its own terminal frame ends with
 * {@code launch_failed} (pre-start) or {@code turn_abandoned}; a line without a code ends with
 * {@code end_turn} (README "How to test").
 */
public class SignaturesThroughAssemblerTest {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    public static Stream<Arguments> lines() {
        List<Line> all = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        all.addAll(SignatureFixtures.read(CatalogueFixturesTest.FIXTURES));
        return all.stream().map(l -> Arguments.of(Named.of(l.toString(), l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    public void theLineClassifiesAsExpectedThroughTheRealAssembler(Line line) throws Exception {
        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(SignatureFixture.parse(line.raw()).frames(), CLASSIFIER);

        assertThat(outcomes).as(line.id()).hasSize(1);
        TurnOutcome o = outcomes.get(0);
        if (line.expected() == null) {
            assertThat(o.outcome()).as(line.id()).isIn(Outcome.COMPLETED, Outcome.CANCELLED);
            assertThat(o.classification()).as(line.id()).isNull();
        } else {
            assertThat(o.outcome()).as(line.id()).isEqualTo(Outcome.FAILED);
            assertThat(o.classification().code()).as(line.id() + " " + o.classification().ruleId()).isEqualTo(line.expected());
        }
    }
}
