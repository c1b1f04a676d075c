package io.recourse.evidence;

import java.time.Instant;

/**
 * A closed turn's evidence plus the facts the outcome needs that the classifier does not
 * (DESIGN §4). Made by {@link EvidenceAssembler#assemble}; turned into a {@link TurnOutcome} by
 * {@link TurnOutcomes#outcome}.
 *
 * <p>{@code evidence.assistantOutputSeen()} counts every non-blank message or thought chunk
 * before the terminal frame, the final chunk(s) included; whether the final chunk(s) are the
 * surfaced failure text (and so do not count, DESIGN §1) is decided with the classifier's
 * verdict in {@link TurnOutcomes}.
 *
 * @param context                 identity and dispatch facts of the turn
 * @param occurredAt              {@code occurred_at} of the terminal frame
 * @param recordedAt              broker append time of the terminal frame
 * @param outputBeforeFinalChunks assistant output before the final assistant chunk(s): a thought
 *                                chunk, or a message chunk outside the final run
 * @param finalChunkComplete      the {@code final_chunk} signal holds the whole final run (no
 *                                chunk of it cut by the excerpt or effect-tail bounds)
 * @param failureMarkerSeen       the Codex failure marker (failure metadata update) came before
 *                                the terminal frame
 * @param terminalSource          what closed the turn
 */
public record ClosedTurn(
        Evidence evidence,
        TurnContext context,
        Instant occurredAt,
        Instant recordedAt,
        boolean outputBeforeFinalChunks,
        boolean finalChunkComplete,
        boolean failureMarkerSeen,
        io.recourse.ingress.FrameSource terminalSource) {

    /** The {@code final_chunk} signal of the evidence, or {@code null}. */
    public Signal finalChunk() {
        for (Signal s : evidence.signals()) {
            if (s.kind() == SignalKind.FINAL_CHUNK) {
                return s;
            }
        }
        return null;
    }
}
