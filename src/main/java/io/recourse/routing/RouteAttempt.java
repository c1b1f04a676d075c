package io.recourse.routing;

import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Instant;

/**
 * One row of a run's route history (DESIGN §7.4, {@code recourse.office.route-attempts}, append-only).
 * A dispatch writes a {@code launched} row when it starts and a second row with the same
 * {@code sequence} when it ends; candidates passed over while routing attempt {@code n} are
 * {@code skipped_*} rows with sequence {@code n}.
 *
 * @param resetHint the validated {@code reset_at} or {@code retry_after} of the failure, or {@code null}
 */
public record RouteAttempt(String runId, String workspaceId, int sequence, CandidateRef candidate,
        AttemptOutcome outcome, Code code, Confidence confidence, String ruleId, AttemptPhase phase,
        Instant resetHint, Instant startedAt, Instant finishedAt) {
}
