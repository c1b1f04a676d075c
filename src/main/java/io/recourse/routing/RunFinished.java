package io.recourse.routing;

import java.time.Instant;

/** The run is over; its routing state ends (DESIGN §7.1, {@code recourse.office.run-requests}). */
public record RunFinished(String runId, String workspaceId, Instant occurredAt) {
}
