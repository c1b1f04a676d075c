package io.recourse.evidence;

import java.util.List;
import java.util.Optional;

/**
 * What the streaming processor must do after {@link EvidenceAssembler#accept} (DESIGN §4).
 *
 * @param state          the new turn-store value to put, or {@code null} when nothing is stored
 *                       (generation-0 frames); the input state itself (the same instance) when
 *                       nothing must be written (see {@link EvidenceAssembler#accept})
 * @param signal         the signal to put into the signal store under
 *                       {@link EvidenceAssembler#signalKey(Signal, TurnState)} at the record's
 *                       timestamp, if any
 * @param evictedSeqs    seqs of stored signals the bounds no longer keep; the state already
 *                       ignores them, so deleting them is optional
 * @param events         SessionEvents to emit, in order ({@link TurnStarted},
 *                       {@link TurnProgressed}, {@link SessionStopped}); never the TurnOutcome,
 *                       which needs {@link EvidenceAssembler#assemble} and the classifier
 * @param closesTurn     this frame closed the turn: fetch its signals, assemble, classify
 * @param lateAfterClose the turn was already closed; counted in the state, nothing else happens
 * @param duplicate      a frame with an already-seen seq; ignored
 */
public record FrameStep(
        TurnState state,
        Optional<Signal> signal,
        List<Long> evictedSeqs,
        List<SessionEvent> events,
        boolean closesTurn,
        boolean lateAfterClose,
        boolean duplicate) {

    public FrameStep {
        evictedSeqs = List.copyOf(evictedSeqs);
        events = List.copyOf(events);
    }
}
