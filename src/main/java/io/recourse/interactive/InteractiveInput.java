package io.recourse.interactive;

import io.recourse.evidence.SessionEvent;
import java.util.Objects;

/**
 * Everything the interactive owner reacts to for one session (DESIGN §6): the session-keyed
 * {@link SessionEvent}s of the evidence stage, {@link SessionControl}s, {@link InteractiveDispatchAck}s
 * and its own due timers ({@link TimerFired}).
 */
public sealed interface InteractiveInput permits InteractiveInput.Event, SessionControl, InteractiveDispatchAck, TimerFired {

    /** The session the input is about (the owner's key). */
    String sessionId();

    /** Wraps a session event. */
    static InteractiveInput of(SessionEvent event) {
        return new Event(event);
    }

    /** A {@link SessionEvent} (TurnStarted, TurnProgressed, TurnOutcome, TurnExpired, SessionStopped). */
    record Event(SessionEvent event) implements InteractiveInput {

        public Event {
            Objects.requireNonNull(event, "event");
        }

        @Override
        public String sessionId() {
            return event.sessionId();
        }
    }
}
