package io.recourse.routing;

import java.time.Instant;

/**
 * The Office scheduler asks for a route for a run (DESIGN §7.1, {@code recourse.office.run-requests}).
 * No validated document for {@code dynamicProfileId} → the run is {@code declined} ({@code no_route_config}).
 */
public record RunRequest(String requestId, String runId, String workspaceId, String dynamicProfileId, String taskId,
        Instant occurredAt) {
}
