package io.recourse.evidence;

import io.recourse.taxonomy.Classification;
import java.time.Instant;

/**
 * A turn closed (DESIGN §4). A failed outcome carries its classification; completed and
 * cancelled ones carry none.
 *
 * @param launch         true for a launch failure (before the {@code session/prompt} request)
 * @param stopReason     the {@code session/prompt} result's {@code stopReason}, or {@code null}
 * @param replaySafe     no effect flag set, or the adapter declared {@code resume_guarantee}
 * @param classification present iff {@code outcome == FAILED}
 * @param occurredAt     {@code occurred_at} of the terminal frame
 * @param recordedAt     broker append time of the terminal frame (the record timestamp); the
 *                       staleness bound of DESIGN §8 is measured from it
 */
public record TurnOutcome(
        TurnContext context,
        Outcome outcome,
        boolean launch,
        String stopReason,
        boolean assistantOutputSeen,
        boolean toolActivitySeen,
        boolean replaySafe,
        Classification classification,
        Instant occurredAt,
        Instant recordedAt) implements SessionEvent {

    @Override
    public String sessionId() {
        return context.sessionId();
    }

    @Override
    public int promptGeneration() {
        return context.promptGeneration();
    }

    /** The command id the turn was dispatched for, or {@code null}. */
    public String commandId() {
        return context.commandId();
    }
}
