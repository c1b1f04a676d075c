package io.recourse.evidence.streams;

import io.recourse.kit.TimeIndexKey;
import java.time.Instant;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the evidence time index (DESIGN §2 "time-index store keys", §4 expiry): an 8-byte
 * big-endian epoch-millisecond instant, a kind byte, then the UTF-8 turn key
 * {@code <session_id>/<prompt_generation>}. Byte order is time order for instants at or after the
 * epoch, so a range scan from the start up to {@link #upTo(long)} returns exactly the due entries.
 * The byte layout is {@link TimeIndexKey}'s; this class only maps the kind byte and wraps in {@link Bytes}.
 */
public final class EvidenceTimeIndex {

    /** What an entry is for. */
    public enum Kind {
        /** Check the turn for idleness at {@code last append + idle bound}. */
        IDLE((byte) 1),
        /** Remove the closed turn's store entry once the retention has passed. */
        PURGE((byte) 2);

        final byte code;

        Kind(byte code) {
            this.code = code;
        }

        static Kind of(byte code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown time-index kind " + code);
        }
    }

    /** A decoded key. */
    public record Entry(Instant due, Kind kind, String turnKey) {
    }

    private EvidenceTimeIndex() {
    }

    /** The key of an entry due at {@code due} (UTC). */
    public static Bytes key(Instant due, Kind kind, String turnKey) {
        return Bytes.wrap(TimeIndexKey.encode(due, kind.code, turnKey));
    }

    /**
     * The inclusive upper bound of a scan for everything due at or before {@code epochMillis}: the
     * 8-byte prefix of {@code epochMillis + 1} ({@link TimeIndexKey#upperBound(Instant)}), which no
     * real (9+ byte) key equals.
     */
    public static Bytes upTo(long epochMillis) {
        return Bytes.wrap(TimeIndexKey.upperBound(Instant.ofEpochMilli(epochMillis)));
    }

    /**
     * Decodes a key made by {@link #key}.
     *
     * @throws IllegalArgumentException when the key is shorter than 9 bytes or has an unknown kind
     */
    public static Entry decode(Bytes key) {
        TimeIndexKey decoded = TimeIndexKey.decode(key.get());
        return new Entry(decoded.due(), Kind.of(decoded.kind()), decoded.id());
    }
}
