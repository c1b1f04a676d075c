package io.recourse.interactive;

import java.time.Instant;
import java.util.Objects;

/**
 * A dispatcher's answer to a {@link RetryCommand} on {@code recourse.kanban.dispatch-acks}
 * (DESIGN §6.3). Only an ack naming the chain's pending {@code command_id} has any effect.
 *
 * @param reason           for {@code failed}: {@code dispatch_failed} or {@code superseded}
 *                         (anything else is treated as {@code dispatch_failed}); may be {@code null}
 * @param promptGeneration the generation the dispatch created, or {@code null}
 * @param occurredAt       event time (UTC)
 */
public record KanbanDispatchAck(
        String commandId,
        AckStatus status,
        String reason,
        String sessionId,
        Integer promptGeneration,
        Instant occurredAt) implements InteractiveInput {

    public KanbanDispatchAck {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
