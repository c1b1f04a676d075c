package io.recourse.classification.streams;

import io.recourse.avro.Classification;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.evidence.SessionEvent;

/**
 * What the classification processor forwards, keyed by {@code session_id} (DESIGN §4, §5): a
 * session event for the owners (the evidence stage's, passed through, and each closed turn's
 * TurnOutcome), a published classification of a failed turn, or the sanitized evidence of a failed
 * turn no catalogue rule matched. In-memory only: it lives between the classification processor and
 * the split right after it, in one sub-topology.
 */
public sealed interface ClassificationOutput {

    /** A SessionEvent (TurnStarted, TurnProgressed, TurnOutcome, TurnExpired, SessionStopped). */
    record Event(SessionEvent event) implements ClassificationOutput {
    }

    /** The record for {@code recourse.classifications}. */
    record Classified(Classification classification) implements ClassificationOutput {
    }

    /** The record for {@code recourse.unclassified-evidence}. */
    record Unclassified(UnclassifiedEvidence evidence) implements ClassificationOutput {
    }
}
