package io.recourse.evidence.streams;

import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.chunk;
import static io.recourse.evidence.streams.EvidenceDriver.endTurn;
import static io.recourse.evidence.streams.EvidenceDriver.error;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.TurnStateValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A closed turn keeps only its closed marker in the turn store (DESIGN §4; the effect
 * marks and kept-signal references were most of an idle session's state), and a later frame of
 * it is still only counted.
 */
public class ClosedTurnMarkerTest {

    private final EvidenceDriver d = new EvidenceDriver(EvidenceTopologyTest.CLASSIFIER);

    @AfterEach
    public void close() {
        d.close();
    }

    @Test
    public void aClosedTurnKeepsOnlyItsKeyAppendTimesAndMarker() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(chunk("s1", 1, 2, "Here is the plan for the refactoring."), T0.plusSeconds(1));
        d.pipe(error("s1", 1, 3, "Internal error: overloaded"), T0.plusSeconds(2));

        TurnStateValue stored = d.turn("s1/1");
        assertThat(stored.getClosed()).isEqualTo("closed");
        assertThat(stored.getEffects()).isEmpty();
        assertThat(stored.getKept()).isEmpty();
        assertThat(stored.getMinMessageSeq()).as("effect flags are the outcome's, not the marker's").isEqualTo(Long.MAX_VALUE);
        assertThat(stored.getSessionId()).isEqualTo("s1");
        assertThat(stored.getPromptGeneration()).isEqualTo(1);
        assertThat(stored.getAgentType()).as("identity fields are the outcome's").isNull();
        assertThat(stored.getTerminal()).isNull();
        assertThat(stored.getClosedAt()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    public void theFailedTurnIsStillClassifiedFromItsFullEvidence() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(error("s1", 1, 2, "Internal error: overloaded"), T0.plusSeconds(1));

        assertThat(d.classifications.readValue().getCode()).isEqualTo("provider_overloaded");
    }

    @Test
    public void aFrameAfterTheMarkerIsCountedAsLateAndOpensNothing() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(endTurn("s1", 1, 2, "end_turn"), T0.plusSeconds(1));
        d.pipe(chunk("s1", 1, 3, "late text"), T0.plusSeconds(2));

        TurnStateValue stored = d.turn("s1/1");
        assertThat(stored.getClosed()).isEqualTo("closed");
        assertThat(stored.getLateAfterClose()).isEqualTo(1);
        assertThat(stored.getEffects()).isEmpty();
    }
}
