package io.recourse.interactive;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The key of the interactive owner's time-indexed store (DESIGN §2 "Time-index store keys", §8):
 * an 8-byte big-endian epoch-millisecond instant, one {@link TimerKind#code() kind byte}, then the
 * session id in UTF-8 — never decimal text. Because instants are non-negative, the keys' unsigned
 * lexicographic byte order (the order of Kafka's {@code Bytes} and of RocksDB) is the order
 * instant, kind, session id; so a punctuator fires everything due with one range scan
 * {@code range(scanFrom(), scanTo(now))}.
 */
public final class TimerKey {

    /** Size of the instant prefix in bytes. */
    public static final int INSTANT_BYTES = Long.BYTES;

    /** Unsigned lexicographic byte order, equal to {@link TimerEntry#ORDER} on encoded keys. */
    public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    private TimerKey() {
    }

    /** Encodes an entry as {@code instant(8, big-endian) · kind(1) · session id (UTF-8)}. */
    public static byte[] encode(TimerEntry entry) {
        byte[] session = entry.sessionId().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(INSTANT_BYTES + 1 + session.length)
                .putLong(entry.dueAt().toEpochMilli())
                .put(entry.kind().code())
                .put(session)
                .array();
    }

    /**
     * Decodes a key written by {@link #encode(TimerEntry)}.
     *
     * @throws IllegalArgumentException when the key is shorter than 9 bytes, has a negative instant
     *                                  or an unknown kind byte
     */
    public static TimerEntry decode(byte[] key) {
        if (key == null || key.length < INSTANT_BYTES + 1) {
            throw new IllegalArgumentException("timer key shorter than " + (INSTANT_BYTES + 1) + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        long millis = buffer.getLong();
        TimerKind kind = TimerKind.ofCode(buffer.get());
        String session = new String(key, INSTANT_BYTES + 1, key.length - INSTANT_BYTES - 1, StandardCharsets.UTF_8);
        return new TimerEntry(kind, Instant.ofEpochMilli(millis), session);
    }

    /** The lowest possible key (inclusive lower bound of a scan): eight zero bytes. */
    public static byte[] scanFrom() {
        return new byte[INSTANT_BYTES];
    }

    /**
     * Inclusive upper bound of a scan for every entry due at or before {@code now}: the 8-byte
     * prefix of {@code now + 1 ms}. Every real key is longer than 8 bytes, so it sorts after this
     * bound exactly when its instant is after {@code now}.
     */
    public static byte[] scanTo(Instant now) {
        return ByteBuffer.allocate(INSTANT_BYTES).putLong(now.toEpochMilli() + 1).array();
    }
}
