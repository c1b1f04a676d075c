package io.recourse.routing;

import java.time.Instant;

/**
 * A manual control of a run (DESIGN §7.3, {@code recourse.office.run-controls}). Fenced: a control
 * whose {@code expectedAttempt} is not the run's current route attempt is ignored.
 */
public record RunControl(String runId, String workspaceId, RunControlAction action, int expectedAttempt,
        Instant occurredAt) {
}
