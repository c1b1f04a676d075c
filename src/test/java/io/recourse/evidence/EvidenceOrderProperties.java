package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.StubClassifier;
import io.recourse.ingress.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.Generate;

/**
 * The evidence and the outcome of a turn do not depend on the arrival order of its frames
 * (DESIGN §4: "evidence is assembled in seq order whatever the arrival order"). Arrival orders
 * are permutations of corpus sequences in which the terminal frame comes after the frames that
 * precede it by seq (a frame arriving after the close is late by definition); frames of
 * generation 0 and frames after the terminal frame by seq may arrive anywhere.
 */
public class EvidenceOrderProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other orders. */
    private static final long SEED = 0x4F52_4445_0004L;

    private static final List<SequenceCorpus.Line> LINES = SequenceCorpus.lines();

    @Test
    public void theEvidenceAndOutcomeOfATurnAreIndependentOfArrivalOrder() {
        theory(200).forAll(Generate.pick(LINES), longs().all()).checkAssert((line, seed) -> {
            OfflineAssembler inOrder = run(line.frames());

            OfflineAssembler shuffled = run(permute(line.frames(), inOrder, new Random(seed)));

            assertThat(shuffled.closedTurns().keySet()).isEqualTo(inOrder.closedTurns().keySet());
            inOrder.closedTurns().forEach((key, turn) ->
                    assertThat(shuffled.closedTurns().get(key).evidence()).as(line.name()).isEqualTo(turn.evidence()));
            assertThat(shuffled.outcomes()).as(line.name()).isEqualTo(inOrder.outcomes());
        });
    }

    @Test
    public void interleavedSessionsGiveTheSameOutcomesAsEachSessionAlone() {
        theory(25).forAll(longs().all()).checkAssert(this::interleavedOrderGivesTheSameOutcomes);
    }

    private void interleavedOrderGivesTheSameOutcomes(long seed) {
        List<Frame> all = new ArrayList<>();
        for (SequenceCorpus.Line line : LINES) {
            for (Frame f : line.frames()) {
                all.add(Frames.in(f, line.name() + "/sess", f.promptGeneration()));
            }
        }
        OfflineAssembler inOrder = run(all);

        OfflineAssembler shuffled = run(permute(all, inOrder, new Random(seed)));

        Comparator<TurnOutcome> byTurn = Comparator.comparing(TurnOutcome::sessionId).thenComparing(TurnOutcome::promptGeneration);
        List<TurnOutcome> expected = new ArrayList<>(inOrder.outcomes());
        List<TurnOutcome> actual = new ArrayList<>(shuffled.outcomes());
        expected.sort(byTurn);
        actual.sort(byTurn);
        assertThat(actual).isEqualTo(expected);
        assertThat(shuffled.closedTurns()).isEqualTo(inOrder.closedTurns());
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static OfflineAssembler run(List<Frame> frames) {
        OfflineAssembler driver = new OfflineAssembler(new StubClassifier());
        for (Frame f : frames) {
            driver.accept(f, f.occurredAt());
        }
        return driver;
    }

    /**
     * A random arrival order: everything shuffled, then each terminal frame moved after the last
     * frame of its turn with a lower seq (and possibly further).
     */
    private static List<Frame> permute(List<Frame> frames, OfflineAssembler inOrder, Random random) {
        Map<String, Long> terminalSeq = new HashMap<>();
        inOrder.turns().forEach((key, state) -> {
            if (state.terminal() != null) {
                terminalSeq.put(key, state.terminal().seq());
            }
        });
        List<Frame> terminals = new ArrayList<>();
        List<Frame> order = new ArrayList<>();
        for (Frame f : frames) {
            Long t = terminalSeq.get(f.turnKey());
            if (f.promptGeneration() > 0 && t != null && t == f.seq()) {
                terminals.add(f);
            } else {
                order.add(f);
            }
        }
        java.util.Collections.shuffle(order, random);
        for (Frame t : terminals) {
            int last = -1;
            for (int i = 0; i < order.size(); i++) {
                Frame f = order.get(i);
                if (f.turnKey().equals(t.turnKey()) && f.seq() < t.seq()) {
                    last = i;
                }
            }
            int at = last + 1 + random.nextInt(order.size() - last);
            order.add(at, t);
        }
        return order;
    }
}
