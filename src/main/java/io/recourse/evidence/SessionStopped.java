package io.recourse.evidence;

import java.time.Instant;

/** The gateway reported {@code session_stopped} (generation 0, DESIGN §3). */
public record SessionStopped(TurnContext context, Instant occurredAt) implements SessionEvent {

    @Override
    public String sessionId() {
        return context.sessionId();
    }

    @Override
    public int promptGeneration() {
        return context.promptGeneration();
    }
}
