package io.recourse.interactive;

import io.recourse.kit.TimeIndexKey;
import java.time.Instant;
import java.util.Comparator;

/**
 * The key of the interactive owner's time-indexed store (DESIGN §2 "Time-index store keys", §8):
 * an 8-byte big-endian epoch-millisecond instant, one {@link InteractiveTimerKind#code() kind byte}, then the
 * session id in UTF-8 — never decimal text. Because instants are non-negative, the keys' unsigned
 * lexicographic byte order (the order of Kafka's {@code Bytes} and of RocksDB) is the order
 * instant, kind, session id; so a punctuator fires everything due with one range scan
 * {@code range(scanFrom(), scanTo(now))}. The byte layout is {@link TimeIndexKey}'s.
 */
public final class TimerKey {

    /** Size of the instant prefix in bytes. */
    public static final int INSTANT_BYTES = TimeIndexKey.INSTANT_BYTES;

    /** Unsigned lexicographic byte order, equal to {@link TimerEntry#ORDER} on encoded keys. */
    public static final Comparator<byte[]> ORDER = TimeIndexKey.ORDER;

    private TimerKey() {
    }

    /** Encodes an entry as {@code instant(8, big-endian) · kind(1) · session id (UTF-8)}. */
    public static byte[] encode(TimerEntry entry) {
        return TimeIndexKey.encode(entry.dueAt(), entry.kind().code(), entry.sessionId());
    }

    /**
     * Decodes a key written by {@link #encode(TimerEntry)}.
     *
     * @throws IllegalArgumentException when the key is shorter than 9 bytes, has a negative instant
     *                                  or an unknown kind byte
     */
    public static TimerEntry decode(byte[] key) {
        TimeIndexKey decoded = TimeIndexKey.decode(key);
        return new TimerEntry(InteractiveTimerKind.ofCode(decoded.kind()), decoded.due(), decoded.id());
    }

    /** The lowest possible key (inclusive lower bound of a scan): eight zero bytes. */
    public static byte[] scanFrom() {
        return TimeIndexKey.lowerBound();
    }

    /**
     * Inclusive upper bound of a scan for every entry due at or before {@code now}: the 8-byte
     * prefix of {@code now + 1 ms}. Every real key is longer than 8 bytes, so it sorts after this
     * bound exactly when its instant is after {@code now}.
     */
    public static byte[] scanTo(Instant now) {
        return TimeIndexKey.upperBound(now);
    }
}
