package io.recourse.interactive;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * One timer of the interactive owner as data (DESIGN §8): what it is for, when it is due (UTC,
 * millisecond precision — the time index stores epoch milliseconds) and which session it belongs
 * to. The processor stores it under {@link TimerKey#encode(TimerEntry)} and, when due, applies it to
 * the policy as {@link TimerFired}.
 *
 * @param dueAt truncated to milliseconds on construction; must not be before the epoch
 */
public record TimerEntry(InteractiveTimerKind kind, Instant dueAt, String sessionId) implements Comparable<TimerEntry> {

    /**
     * Instant, then kind, then the session id's UTF-8 bytes (unsigned): the order a time-index scan
     * fires entries in, equal to the order of their {@link TimerKey}s.
     */
    public static final Comparator<TimerEntry> ORDER = Comparator.comparing(TimerEntry::dueAt)
            .thenComparing(TimerEntry::kind)
            .thenComparing(e -> e.sessionId().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);

    public TimerEntry {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(sessionId, "sessionId");
        dueAt = dueAt.truncatedTo(ChronoUnit.MILLIS);
        if (dueAt.toEpochMilli() < 0) {
            throw new IllegalArgumentException("timer instant before the epoch: " + dueAt);
        }
    }

    @Override
    public int compareTo(TimerEntry other) {
        return ORDER.compare(this, other);
    }
}
