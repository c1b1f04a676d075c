package io.recourse.evidence;

import java.time.Instant;

/**
 * A turn began: its first {@code prompt_dispatched} or {@code session/prompt} request (DESIGN §4).
 *
 * @param promptDigest     hex SHA-256 of the RFC 8785 form of the request's {@code params.prompt}
 *                         (or the gateway's own), DESIGN §6.5; {@code null} when unknown
 * @param turnConfigDigest hex SHA-256 of the RFC 8785 form of {@code turn_config}, or {@code null}
 */
public record TurnStarted(TurnContext context, String promptDigest, String turnConfigDigest, Instant occurredAt)
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
