package io.recourse.interactive;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The interactive owner's start settle (DESIGN §6.3): for {@code recourse.interactive.start.settle.ms}
 * (default 2 s) after a task reaches RUNNING, a due RETRY entry waits in the time index, so the
 * session events restored or buffered while the task was down (a newer prompt of the session) are
 * applied first. A pure function of instants on the injected clock; the processor asks it for each
 * due RETRY entry of a punctuation.
 */
public final class StartSettle {

    private StartSettle() {
    }

    /**
     * What to do with one RETRY entry now.
     *
     * @param waitUntil {@code null}: fire the entry now; otherwise the instant before which it stays
     *                  in the index unfired (the end of the start settle, or the entry's own due time)
     */
    public record Verdict(Instant waitUntil) {

        /** Fire the entry now. */
        public static final Verdict FIRE = new Verdict(null);

        /** Whether the entry fires now. */
        public boolean fire() {
            return waitUntil == null;
        }
    }

    /**
     * The verdict on a RETRY entry due at {@code dueAt}, at {@code now}, for a task RUNNING since
     * {@code taskRunningSince} with a start settle of {@code settle}: it fires once it is due
     * ({@code dueAt ≤ now}) and the settle has passed ({@code now ≥ taskRunningSince + settle});
     * otherwise it waits until the later of the two instants. A zero settle never holds a due entry.
     *
     * @throws NullPointerException     when an argument is null
     * @throws IllegalArgumentException when {@code settle} is negative
     */
    public static Verdict retry(Instant now, Instant taskRunningSince, Duration settle, Instant dueAt) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(taskRunningSince, "taskRunningSince");
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(dueAt, "dueAt");
        if (settle.isNegative()) {
            throw new IllegalArgumentException("the start settle must not be negative, got " + settle);
        }
        Instant settled = taskRunningSince.plus(settle);
        Instant fireAt = settled.isAfter(dueAt) ? settled : dueAt;
        return now.isBefore(fireAt) ? new Verdict(fireAt) : Verdict.FIRE;
    }
}
