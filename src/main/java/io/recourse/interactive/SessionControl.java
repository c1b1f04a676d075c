package io.recourse.interactive;

import java.time.Instant;
import java.util.Objects;

/**
 * A user/platform control on {@code recourse.session-controls} (DESIGN §6.4).
 *
 * @param expectedGeneration optional; when it is lower than the highest generation the owner has
 *                           seen for the session, the control is stale and ignored. UIs send the
 *                           {@code generation} of the RecoveryState they show
 * @param occurredAt         event time (UTC)
 */
public record SessionControl(ControlAction action, String sessionId, Integer expectedGeneration, Instant occurredAt)
        implements InteractiveInput {

    public SessionControl {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
