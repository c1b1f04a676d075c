package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.StubClassifier;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every line of {@code corpus/sequences.jsonl}: outcome, replay safety and launch flag of the
 * turn, with {@link StubClassifier} deciding failed vs completed. Codes, classes and hints are
 * the catalogue's and are asserted there.
 */
public class SequenceCorpusTest {

    public static Stream<SequenceCorpus.Line> lines() {
        return SequenceCorpus.lines().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    public void theTurnOfEveryCorpusSequenceHasTheExpectedOutcomeAndReplaySafety(SequenceCorpus.Line line) {
        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(line.frames(), new StubClassifier());

        boolean hasPromptResult = line.frames().stream().anyMatch(f -> f.promptGeneration() > 0
                && f.source() == FrameSource.ACP_RESPONSE && f.payload().tree().path("result").has("stopReason"));
        if (line.expectedOutcome().equals("completed") && !hasPromptResult) {
            // e.g. a session/load replay in generation 0 only: no turn, no outcome, no classification
            assertThat(outcomes).isEmpty();
            assertThat(line.frames()).allMatch(f -> f.promptGeneration() == 0);
            return;
        }
        assertThat(outcomes).hasSize(1);
        TurnOutcome outcome = outcomes.get(0);
        assertThat(outcome.outcome().wire()).isEqualTo(line.expectedOutcome());
        assertThat(outcome.replaySafe()).isEqualTo(line.expectedReplaySafe());
        assertThat(outcome.launch()).isFalse();
        assertThat(outcome.classification() != null).isEqualTo(outcome.outcome() == Outcome.FAILED);
        Frame last = line.frames().stream().filter(f -> f.promptGeneration() > 0).reduce((a, b) -> b).orElseThrow();
        assertThat(outcome.sessionId()).isEqualTo(last.sessionId());
    }
}
