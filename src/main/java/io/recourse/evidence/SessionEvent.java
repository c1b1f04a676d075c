package io.recourse.evidence;

import java.time.Instant;

/**
 * What the evidence stage tells the policy owners about a session (DESIGN §4): re-keyed by
 * {@code session_id} for the interactive owner and, for dynamic profiles, by {@code workspace_id}
 * for the routing owner.
 */
public sealed interface SessionEvent
        permits TurnStarted, TurnProgressed, TurnOutcome, TurnExpired, SessionStopped {

    String sessionId();

    /** The generation the event is about; 0 for {@link SessionStopped}. */
    int promptGeneration();

    /** Event time (UTC) of the frame that caused the event. */
    Instant occurredAt();
}
