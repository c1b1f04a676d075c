package io.recourse.classification;

import io.recourse.taxonomy.Classification;
import java.util.List;
import java.util.Optional;

/**
 * What the classifier did with one turn, for {@code recourse catalogue explain} (DESIGN §5.2):
 * every rule in the order tried, whether it matched and on which signals, and why the winner won.
 *
 * @param catalogueVersion e.g. {@code provider-errors.v1}
 * @param completedTurn    the turn ended with a {@code session/prompt} result ({@code stopReason})
 * @param trials           one entry per rule, highest priority first
 * @param classification   the answer of {@link Classifier#classify}
 * @param verdict          one sentence: why the winner won, or why there is no classification
 * @param evidenceSeqs     {@code seq}s of the signals the winning rule rests on (empty for a
 *                         fallback or no classification)
 * @param finalChunkIsFailure the turn is classified and its final assistant chunk <em>is</em> the
 *                         surfaced failure (the winner read it, or a surfaced-failure shape marks
 *                         it): that chunk does not count as assistant output (DESIGN §1)
 */
public record Explanation(
        String catalogueVersion,
        boolean completedTurn,
        List<Trial> trials,
        Optional<Classification> classification,
        String verdict,
        List<Long> evidenceSeqs,
        boolean finalChunkIsFailure) {

    public Explanation {
        trials = List.copyOf(trials);
        evidenceSeqs = List.copyOf(evidenceSeqs);
    }

    /**
     * One rule tried against the turn.
     *
     * @param matched    all conditions held
     * @param background the match rests only on background-request signals
     * @param signalSeqs {@code seq}s of the signals its conditions held on
     * @param detail     why it matched or which condition failed
     */
    public record Trial(String ruleId, int priority, boolean matched, boolean background, List<Long> signalSeqs,
                        String detail) {

        public Trial {
            signalSeqs = List.copyOf(signalSeqs);
        }
    }
}
