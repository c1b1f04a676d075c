package io.recourse.evidence.streams;

import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.SessionEvent;

/**
 * What the evidence processor forwards, keyed by {@code session_id} (DESIGN §4): a session event
 * of a turn still open or expired, or a closed turn's assembled evidence for the classification
 * processor right after it. In-memory only: it lives between the evidence processor and the
 * classification processor, in one sub-topology.
 */
public sealed interface EvidenceOutput {

    /** A SessionEvent (TurnStarted, TurnProgressed, TurnExpired, SessionStopped). */
    record Event(SessionEvent event) implements EvidenceOutput {
    }

    /** A turn that closed, with its sanitized, bounded evidence, to be classified. */
    record Closed(ClosedTurn turn) implements EvidenceOutput {
    }
}
