package io.recourse.evidence.streams;

import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.chunk;
import static io.recourse.evidence.streams.EvidenceDriver.endTurn;
import static io.recourse.evidence.streams.EvidenceDriver.error;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static io.recourse.evidence.streams.EvidenceDriver.stderr;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.evidence.EvidenceAssembler;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
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
    public void closingDeletesTheTurnsStoredSignalsAndStoresNotTheClosingOne() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(stderr("s1", 1, 2, "connection reset"), T0.plusSeconds(1));
        assertThat(signalKeys("s1/1")).containsExactly("s1/1#00000000000000000002");

        d.pipe(error("s1", 1, 3, "Internal error"), T0.plusSeconds(2));

        assertThat(signalKeys("s1/1")).isEmpty();
        assertThat(d.unclassified.readValue().getSignals()).extracting(s -> s.getSeq()).containsExactly(2L, 3L);
    }

    private List<String> signalKeys(String turn) {
        WindowStore<String, StoredSignal> store = d.driver.getWindowStore(EvidenceTopology.SIGNAL_STORE);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Windowed<String>, StoredSignal> it = store.fetch(EvidenceAssembler.signalRangeFrom(turn),
                EvidenceAssembler.signalRangeTo(turn), T0.toEpochMilli(), T0.plusSeconds(10).toEpochMilli())) {
            it.forEachRemaining(kv -> keys.add(kv.key.key()));
        }
        return keys;
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
