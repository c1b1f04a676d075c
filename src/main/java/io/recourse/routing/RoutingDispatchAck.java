package io.recourse.routing;

import io.recourse.evidence.Sanitizer;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Instant;

/**
 * A dispatcher's acknowledgement of a RouteCommand (DESIGN §7.3, {@code recourse.office.dispatch-acks}).
 * {@code failed} → RouteAttempt {@code failed_other} and {@code decline} with the reason's wire
 * name ({@code dispatch_failed} when absent); the command is never resent.
 *
 * @param reason           for {@code failed}: the closed-vocabulary reason, or {@code null}
 * @param reasonDetail     the dispatcher's optional {@code reason_detail}: sanitized and cut to
 *                         {@value #MAX_DETAIL_CHARS} characters here (DESIGN §9); never copied into an output
 * @param promptGeneration the generation the dispatch created, or {@code null}
 */
public record RoutingDispatchAck(String commandId, AckStatus status, DispatchAckReason reason, String reasonDetail,
        String runId, String workspaceId, String sessionId, Integer promptGeneration, Instant occurredAt) {

    /** Largest {@code reasonDetail}, in chars. */
    public static final int MAX_DETAIL_CHARS = 256;

    public RoutingDispatchAck {
        reasonDetail = Sanitizer.sanitizeShort(reasonDetail, MAX_DETAIL_CHARS);
    }

    /** An ack without a detail. */
    public RoutingDispatchAck(String commandId, AckStatus status, DispatchAckReason reason, String runId,
            String workspaceId, String sessionId, Integer promptGeneration, Instant occurredAt) {
        this(commandId, status, reason, null, runId, workspaceId, sessionId, promptGeneration, occurredAt);
    }
}
