package io.recourse.routing;

import io.recourse.kit.TimeIndexEntry;
import io.recourse.kit.TimeIndexKey;
import java.time.Instant;
import java.util.Comparator;

/**
 * One entry of the time-indexed store (DESIGN §8): fires at {@code due} (UTC, millisecond
 * precision). Its store key ({@link #key()}) is the 8-byte big-endian epoch-millisecond instant, the
 * kind byte, then the id in UTF-8 ({@link TimeIndexKey}), so a byte-order range scan visits entries in
 * due order. Firing a stale entry is harmless: the decision functions check it against the current
 * state.
 */
public record TimerEntry(RoutingTimerKind kind, Instant due, String id) implements TimeIndexEntry {

    /** Orders as the store key does: due, then kind byte, then the id's UTF-8 bytes. */
    public static final Comparator<TimerEntry> ORDER = TimeIndexEntry.order();

    /** Decodes a store key; throws {@link IllegalArgumentException} on a key shorter than 9 bytes or an unknown kind byte. */
    public static TimerEntry fromKey(byte[] key) {
        TimeIndexKey decoded = TimeIndexKey.decode(key);
        return new TimerEntry(decoded.kind(RoutingTimerKind.class), decoded.due(), decoded.id());
    }

    /** The key of the first entry due after {@code instant}: scan {@code [lowest, upperBound(now))}. */
    public static byte[] upperBound(Instant instant) {
        return TimeIndexKey.upperBound(instant);
    }
}
