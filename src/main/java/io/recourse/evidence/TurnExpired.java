package io.recourse.evidence;

import java.time.Instant;

/**
 * An idle turn was closed by the evidence idle bound without a terminal frame (DESIGN §4).
 * Inactivity is never provider evidence: no classification.
 *
 * @param lastAppendAt broker append time of the turn's last frame
 * @param occurredAt   the stream time at which it expired
 */
public record TurnExpired(TurnContext context, Instant lastAppendAt, Instant occurredAt) implements SessionEvent {

    @Override
    public String sessionId() {
        return context.sessionId();
    }

    @Override
    public int promptGeneration() {
        return context.promptGeneration();
    }
}
