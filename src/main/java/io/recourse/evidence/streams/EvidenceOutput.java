package io.recourse.evidence.streams;

import io.recourse.avro.Classification;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.evidence.SessionEvent;

/**
 * What the evidence processor forwards, keyed by {@code session_id} (DESIGN §4): a session
 * event for the owners, a published classification of a failed turn, or the sanitized evidence
 * of a failed turn no catalogue rule matched. In-memory only: it lives between the evidence
 * processor and the split right after it, in one sub-topology.
 */
public sealed interface EvidenceOutput {

    /** A SessionEvent (TurnStarted, TurnProgressed, TurnOutcome, TurnExpired, SessionStopped). */
    record Event(SessionEvent event) implements EvidenceOutput {
    }

    /** The record for {@code recourse.classifications}. */
    record Classified(Classification classification) implements EvidenceOutput {
    }

    /** The record for {@code recourse.unclassified-evidence}. */
    record Unclassified(UnclassifiedEvidence evidence) implements EvidenceOutput {
    }
}
