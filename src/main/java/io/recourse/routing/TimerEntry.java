package io.recourse.routing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;

/**
 * One entry of the time-indexed store (DESIGN §8): fires at {@code due} (UTC, millisecond
 * precision). Its store key is the 8-byte big-endian epoch-millisecond instant, the kind byte, then
 * the id in UTF-8, so a byte-order range scan visits entries in due order. Firing a stale entry is
 * harmless: the decision functions check it against the current state.
 */
public record TimerEntry(TimerKind kind, Instant due, String id) {

    /** Orders as the store key does: due, then kind byte, then id. */
    public static final Comparator<TimerEntry> ORDER = Comparator.comparing(TimerEntry::due)
            .thenComparing(e -> e.kind().code())
            .thenComparing(TimerEntry::id);

    /** The store key: 8-byte big-endian epoch millis + kind byte + UTF-8 id. */
    public byte[] key() {
        byte[] id = this.id.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(9 + id.length).putLong(due.toEpochMilli()).put(kind.code()).put(id).array();
    }

    /** Decodes a store key; throws {@link IllegalArgumentException} on a key shorter than 9 bytes. */
    public static TimerEntry fromKey(byte[] key) {
        if (key.length < 9) {
            throw new IllegalArgumentException("time-index key shorter than 9 bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(key);
        Instant due = Instant.ofEpochMilli(b.getLong());
        TimerKind kind = TimerKind.ofCode(b.get());
        return new TimerEntry(kind, due, new String(Arrays.copyOfRange(key, 9, key.length), StandardCharsets.UTF_8));
    }

    /** The key of the first entry due after {@code instant}: scan {@code [lowest, upperBound(now))}. */
    public static byte[] upperBound(Instant instant) {
        return ByteBuffer.allocate(8).putLong(instant.toEpochMilli() + 1).array();
    }
}
