package io.recourse.classification;

import static io.recourse.evidence.Frames.chunk;
import static io.recourse.evidence.Frames.codexMarker;
import static io.recourse.evidence.Frames.endTurn;
import static io.recourse.evidence.Frames.error;
import static io.recourse.evidence.Frames.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Frames;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The outcome rules of {@link TurnOutcomes}, in particular when the final chunk is the surfaced failure text. */
public class TurnOutcomesTest {

    /** Records every evidence it is asked about and answers like {@link StubClassifier}. */
    private static final class RecordingClassifier implements TurnClassifier {
        final List<Evidence> asked = new ArrayList<>();

        @Override
        public Optional<io.recourse.taxonomy.Classification> classify(Evidence evidence) {
            asked.add(evidence);
            return new StubClassifier().classify(evidence);
        }
    }

    private static ClosedTurn close(Frame... frames) {
        OfflineAssembler driver = new OfflineAssembler(e -> Optional.empty());
        for (Frame f : frames) {
            driver.accept(f, f.occurredAt());
        }
        return driver.closedTurns().get("s1/1");
    }

    @Test
    public void theProbeAsksAboutTheFinalChunkFollowedByEndTurnWithTheFailureMetadata() {
        ClosedTurn turn = close(prompt(1), codexMarker(2), chunk(3, "Selected model is at capacity."), endTurn(4));
        RecordingClassifier classifier = new RecordingClassifier();

        TurnOutcome outcome = TurnOutcomes.outcome(turn, classifier);

        assertThat(classifier.asked).hasSize(2);
        Evidence probe = classifier.asked.get(1);
        assertThat(probe.signals()).extracting(Signal::kind)
                .containsExactly(SignalKind.UPDATE_META, SignalKind.FINAL_CHUNK, SignalKind.STOP);
        assertThat(probe.stopReason()).isEqualTo("end_turn");
        assertThat(outcome.assistantOutputSeen()).isFalse();
    }

    @Test
    public void aCompletedTurnIsNeverProbed() {
        ClosedTurn turn = close(prompt(1), chunk(2, "Done."), endTurn(3));
        RecordingClassifier classifier = new RecordingClassifier();

        TurnOutcome outcome = TurnOutcomes.outcome(turn, classifier);

        assertThat(outcome.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(classifier.asked).hasSize(1);
        assertThat(outcome.assistantOutputSeen()).isTrue();
    }

    @Test
    public void aFinalChunkThatIsNeitherRecognizedNorAnEchoCounts() {
        ClosedTurn turn = close(prompt(1), chunk(2, "Let me look at the users route."), error(3, "Internal error: disconnected"));

        TurnOutcome outcome = TurnOutcomes.outcome(turn, new StubClassifier());

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.assistantOutputSeen()).isTrue();
        assertThat(outcome.replaySafe()).isFalse();
    }

    @Test
    public void aShortChunkIsNeverTakenForAnEcho() {
        ClosedTurn turn = close(prompt(1), chunk(2, "Error"), error(3, "Internal error: disconnected"));

        assertThat(TurnOutcomes.echoesError(turn.evidence(), turn.finalChunk())).isFalse();
    }

    @Test
    public void anEchoIsFoundInsideCompactJsonErrorData() {
        ClosedTurn turn = close(prompt(1), chunk(2, "You've hit your \"usage limit\".\n\n"),
                Frames.frame(3, io.recourse.ingress.FrameSource.ACP_ERROR,
                        "{\"id\":7,\"error\":{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"message\":\"You've hit your \\\"usage limit\\\".\"}}}").build());

        assertThat(TurnOutcomes.echoesError(turn.evidence(), turn.finalChunk())).isTrue();
    }

    @Test
    public void anIncompleteFinalRunIsNeverTreatedAsFailureText() {
        ClosedTurn turn = close(prompt(1), chunk(2, Frames.prose(3000)), chunk(3, "API Error: 529 " + Frames.prose(2000)), endTurn(4));

        TurnOutcome outcome = TurnOutcomes.outcome(turn, new StubClassifier());

        assertThat(turn.finalChunkComplete()).isFalse();
        assertThat(outcome.assistantOutputSeen()).isTrue();
    }

    @Test
    public void theFailureMarkerFlagIsExposed() {
        assertThat(close(prompt(1), codexMarker(2), chunk(3, "x"), endTurn(4)).failureMarkerSeen()).isTrue();
        assertThat(close(prompt(1), chunk(3, "x"), endTurn(4)).failureMarkerSeen()).isFalse();
    }

    @Test
    public void aClassifierThatThrowsFailsEveryTurnClosedAsUnclassifiedEvenOneClosedByAResult() {
        TurnClassifier broken = e -> {
            throw new IllegalStateException("rule bug");
        };
        ClosedTurn failed = close(prompt(1), error(2, "Internal error: disconnected"));
        ClosedTurn completed = close(prompt(1), chunk(2, "Done."), endTurn(3));

        TurnOutcome failedOutcome = TurnOutcomes.outcome(failed, broken);
        TurnOutcome completedOutcome = TurnOutcomes.outcome(completed, broken);

        assertThat(failedOutcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(failedOutcome.classification().code()).isEqualTo(io.recourse.taxonomy.Code.AGENT_RUNTIME_ERROR);
        assertThat(failedOutcome.classification().confidence()).isEqualTo(io.recourse.taxonomy.Confidence.LOW);
        assertThat(completedOutcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(completedOutcome.classification().code()).isEqualTo(io.recourse.taxonomy.Code.AGENT_RUNTIME_ERROR);
        assertThat(completedOutcome.classification().errorClass()).isEqualTo(io.recourse.taxonomy.ErrorClass.UNCLASSIFIED);
        assertThat(completedOutcome.classification().confidence()).isEqualTo(io.recourse.taxonomy.Confidence.LOW);
    }
}
