package io.recourse.routing;

import io.recourse.taxonomy.Code;
import java.time.Instant;

/**
 * An instruction to the Office dispatcher (DESIGN §7.4, {@code recourse.office.route-commands}, keyed
 * by {@code run_id}). Written only when due: a scheduled retry's command appears at its
 * {@code retry_at}, with {@code issuedAt} = that processing instant.
 *
 * @param commandId          deterministic {@code <run_id>#<attempt>} ({@code …#<attempt>.decline} for a decline)
 * @param sessionId          the run's current session, or {@code null} before the first turn
 * @param expectedGeneration the highest generation seen on {@code sessionId}, or {@code null}
 * @param candidate          the route; {@code null} for a decline issued before any route was chosen
 * @param code               the semantic code that caused the command, or {@code null}
 * @param ruleId             the catalogue rule behind {@code code}, or {@code null}
 * @param reason             routing's reason, e.g. {@code policy_stop}, {@code cooldown_released}
 * @param attempt            the route attempt this command starts (for a decline: the last one)
 */
public record RouteCommand(String commandId, String runId, String workspaceId, String sessionId,
        Integer expectedGeneration, RouteAction action, CandidateRef candidate, Code code, String ruleId,
        String reason, int attempt, Instant issuedAt) {
}
