package io.recourse.interactive;

import io.recourse.kit.TimeIndexEntry;
import io.recourse.kit.TimeIndexKey;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Objects;

/**
 * One timer of the interactive owner as data (DESIGN §8): what it is for, when it is due (UTC,
 * millisecond precision — the time index stores epoch milliseconds) and which session it belongs
 * to. The processor stores it under {@link #key()} ({@link TimeIndexKey}'s layout: an 8-byte
 * big-endian epoch-millisecond instant, the {@link InteractiveTimerKind#code() kind byte}, then the
 * session id in UTF-8, DESIGN §2 "Time-index store keys") and, when due, applies it to the policy
 * as {@link TimerFired}.
 *
 * @param dueAt truncated to milliseconds on construction; must not be before the epoch
 */
public record TimerEntry(InteractiveTimerKind kind, Instant dueAt, String sessionId)
        implements TimeIndexEntry, Comparable<TimerEntry> {

    /**
     * Instant, then kind, then the session id's UTF-8 bytes (unsigned): the order a time-index scan
     * fires entries in, equal to the order of their {@link #key()}s ({@link TimeIndexKey#ORDER}).
     */
    public static final Comparator<TimerEntry> ORDER = TimeIndexEntry.order();

    public TimerEntry {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(sessionId, "sessionId");
        dueAt = dueAt.truncatedTo(ChronoUnit.MILLIS);
        if (dueAt.toEpochMilli() < 0) {
            throw new IllegalArgumentException("timer instant before the epoch: " + dueAt);
        }
    }

    /**
     * Decodes a key written by {@link #key()}.
     *
     * @throws IllegalArgumentException when the key is shorter than 9 bytes, has a negative instant
     *                                  or an unknown kind byte
     */
    public static TimerEntry fromKey(byte[] key) {
        TimeIndexKey decoded = TimeIndexKey.decode(key);
        return new TimerEntry(decoded.kind(InteractiveTimerKind.class), decoded.due(), decoded.id());
    }

    /** {@link #dueAt()}: the time index's name for it. */
    @Override
    public Instant due() {
        return dueAt;
    }

    /** {@link #sessionId()}: the time index's name for it. */
    @Override
    public String id() {
        return sessionId;
    }

    @Override
    public int compareTo(TimerEntry other) {
        return ORDER.compare(this, other);
    }
}
