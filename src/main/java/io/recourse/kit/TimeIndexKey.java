package io.recourse.kit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The one encoding of time-index store keys (DESIGN §2 "Time-index store keys", §8): an 8-byte
 * big-endian epoch-millisecond instant, one kind byte (what the entry is for), then the id in
 * UTF-8 — never decimal text. For instants at or after the epoch the keys' unsigned lexicographic
 * byte order ({@link #ORDER}, the order of Kafka's {@code Bytes} and of RocksDB) is the order
 * instant, kind byte, id; so everything due is found with one range scan
 * {@code range(lowerBound(), upperBound(now))}. Pure: no Kafka types. Instants are truncated to
 * milliseconds.
 *
 * @param due  when the entry is due (UTC, millisecond precision)
 * @param kind the raw kind byte; its meaning belongs to the caller's kind enum
 * @param id   the entry's id (session id, run id, turn key …)
 */
public record TimeIndexKey(Instant due, byte kind, String id) {

    /** Size of the instant prefix in bytes. */
    public static final int INSTANT_BYTES = Long.BYTES;

    /** Size of the smallest valid key: the instant prefix plus the kind byte. */
    public static final int MIN_KEY_BYTES = INSTANT_BYTES + 1;

    /** Unsigned lexicographic byte order of encoded keys. */
    public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    /**
     * Encodes {@code instant(8, big-endian epoch ms) · kind(1) · id (UTF-8)}.
     *
     * @throws NullPointerException when {@code due} or {@code id} is null
     */
    public static byte[] encode(Instant due, byte kind, String id) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(MIN_KEY_BYTES + idBytes.length)
                .putLong(due.toEpochMilli())
                .put(kind)
                .put(idBytes)
                .array();
    }

    /**
     * The kind byte read as a constant of {@code type}.
     *
     * @throws IllegalArgumentException for a byte {@code type} does not know
     */
    public <K extends Enum<K> & TimerKind> K kind(Class<K> type) {
        return TimerKind.ofCode(type, kind);
    }

    /** Encodes this decoded key; same as {@link #encode(Instant, byte, String)}. */
    public byte[] encode() {
        return encode(due, kind, id);
    }

    /**
     * Decodes a key written by {@link #encode(Instant, byte, String)}; the kind byte is not checked.
     *
     * @throws IllegalArgumentException when the key is null or shorter than 9 bytes
     */
    public static TimeIndexKey decode(byte[] key) {
        if (key == null || key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("time-index key shorter than " + MIN_KEY_BYTES + " bytes: "
                    + (key == null ? "null" : key.length + " bytes"));
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        Instant due = Instant.ofEpochMilli(buffer.getLong());
        byte kind = buffer.get();
        String id = new String(key, MIN_KEY_BYTES, key.length - MIN_KEY_BYTES, StandardCharsets.UTF_8);
        return new TimeIndexKey(due, kind, id);
    }

    /** The lowest possible key (inclusive lower bound of a scan): eight zero bytes, i.e. the epoch. */
    public static byte[] lowerBound() {
        return new byte[INSTANT_BYTES];
    }

    /**
     * Upper bound of a scan for every entry due at or before {@code now}: the 8-byte instant prefix
     * of {@code now + 1 ms}. Every real key is longer than 8 bytes, so it sorts before this bound
     * exactly when its instant is at or before {@code now}; the bound therefore works both as an
     * inclusive and as an exclusive range end.
     */
    public static byte[] upperBound(Instant now) {
        return ByteBuffer.allocate(INSTANT_BYTES).putLong(now.toEpochMilli() + 1).array();
    }
}
