package io.recourse.evidence;

import java.time.Instant;

/** A turn's first assistant output or tool activity; at most once per turn (DESIGN §4). */
public record TurnProgressed(TurnContext context, boolean assistantOutputSeen, boolean toolActivitySeen, Instant occurredAt)
        implements SessionEvent {

    @Override
    public String sessionId() {
        return context.sessionId();
    }

    @Override
    public int promptGeneration() {
        return context.promptGeneration();
    }
}
