package io.recourse.interactive;

import java.time.Instant;
import java.util.Objects;

/**
 * A due entry of the time index, handed to the policy by the wall-clock punctuator (DESIGN §8).
 * The processor deletes the entry from the index before applying it; the policy re-arms when it
 * has to.
 *
 * @param taskRunningSince the instant the stream task last reached RUNNING (after a start or a
 *                         restore), or {@code null} when unknown; the dispatch timeout is measured
 *                         from {@code max(issued_at, taskRunningSince)} (DESIGN §6.3)
 */
public record TimerFired(TimerEntry entry, Instant taskRunningSince) implements InteractiveInput {

    public TimerFired {
        Objects.requireNonNull(entry, "entry");
    }

    @Override
    public String sessionId() {
        return entry.sessionId();
    }
}
