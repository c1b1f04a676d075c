package io.recourse.routing;

import java.time.Instant;

/**
 * A dispatcher's acknowledgement of a RouteCommand (DESIGN §7.3, {@code recourse.office.dispatch-acks}).
 * {@code failed} → RouteAttempt {@code failed_other} and {@code decline}; the command is never resent.
 *
 * @param reason           the dispatcher's reason for {@code failed}, or {@code null}
 * @param promptGeneration the generation the dispatch created, or {@code null}
 */
public record OfficeDispatchAck(String commandId, AckStatus status, String reason, String runId, String workspaceId,
        String sessionId, Integer promptGeneration, Instant occurredAt) {
}
