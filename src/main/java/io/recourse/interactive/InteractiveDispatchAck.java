package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.recourse.evidence.Sanitizer;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Instant;
import java.util.Objects;

/**
 * A dispatcher's answer to a {@link RetryCommand} on {@code recourse.kanban.dispatch-acks}
 * (DESIGN §6.3). Only an ack naming the chain's pending {@code command_id} has any effect.
 *
 * @param reason           for {@code failed}: the closed-vocabulary reason ({@code superseded} →
 *                         {@code superseded}, anything else → {@code dispatch_failed}); may be {@code null}
 * @param reasonDetail     the dispatcher's optional {@code reason_detail}: sanitized and cut to
 *                         {@value #MAX_DETAIL_CHARS} characters here (DESIGN §9); never copied into an output
 * @param promptGeneration the generation the dispatch created, or {@code null}
 * @param occurredAt       event time (UTC)
 */
public record InteractiveDispatchAck(
        String commandId,
        AckStatus status,
        DispatchAckReason reason,
        String reasonDetail,
        String sessionId,
        Integer promptGeneration,
        Instant occurredAt) implements InteractiveInput {

    /** Largest {@code reasonDetail}, in chars. */
    public static final int MAX_DETAIL_CHARS = 256;

    @JsonCreator
    public InteractiveDispatchAck {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(sessionId, "sessionId");
        reasonDetail = Sanitizer.sanitizeShort(reasonDetail, MAX_DETAIL_CHARS);
    }

    /** An ack without a detail. */
    public InteractiveDispatchAck(String commandId, AckStatus status, DispatchAckReason reason, String sessionId,
            Integer promptGeneration, Instant occurredAt) {
        this(commandId, status, reason, null, sessionId, promptGeneration, occurredAt);
    }
}
