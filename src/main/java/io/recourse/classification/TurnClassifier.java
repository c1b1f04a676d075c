package io.recourse.classification;

import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import java.util.Optional;

/**
 * Classifies the evidence of one closed turn (DESIGN §5). Empty means "not a failure": the turn
 * ended with a {@code session/prompt} result and no failure rule matched a failure position.
 * For a turn closed without a result (error, exit, launch failure, {@code turn_abandoned}) the
 * answer is always present (a fallback code when no rule matched).
 */
@FunctionalInterface
public interface TurnClassifier {

    /** Classifies {@code evidence}; pure and deterministic. */
    Optional<Classification> classify(Evidence evidence);
}
