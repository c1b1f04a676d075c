package io.recourse.routing;

import java.time.Instant;
import java.util.Map;

/**
 * A run parked until capacity returns (DESIGN §7.3–7.4, {@code recourse.office.parked-runs},
 * compacted by {@code run_id}; a tombstone on release).
 *
 * @param status  {@code waiting_for_provider_capacity} (then {@code wakeAt} is set) or
 *                {@code blocked_provider_action_required} (no timer)
 * @param reasons per candidate ({@code execution_profile_id} → why it is not routable), in candidate order
 */
public record ParkedRun(String runId, String workspaceId, RunStatus status, Instant wakeAt, String reason,
        Map<String, String> reasons, Instant parkedAt) {

    public ParkedRun {
        reasons = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(reasons));
    }
}
