package io.recourse.routing;

import io.recourse.taxonomy.Code;
import java.time.Instant;

/**
 * The latest routing state of a run (DESIGN §7.4, {@code recourse.office.run-state}, compacted by
 * {@code run_id}): enough for "Model at capacity — retrying Codex in 8s (2/3)".
 *
 * @param attempt      the route attempt sequence (dispatches so far)
 * @param retryAt      when the scheduled same-route command is due (UTC), or {@code null}
 * @param retryOrdinal same-route retries scheduled on the current candidate (1-based), 0 when none
 * @param maxRetries   the current candidate's retry budget for the class being retried
 * @param wakeAt       when a parked (or reset-waiting) run is woken, or {@code null}
 * @param reason       routing's reason, e.g. {@code policy_stop}, {@code max_route_attempts}
 */
public record RunState(String runId, String workspaceId, RunStatus status, CandidateRef candidate, int attempt,
        Instant retryAt, int retryOrdinal, int maxRetries, Instant wakeAt, Code code, String reason,
        Instant updatedAt) {
}
