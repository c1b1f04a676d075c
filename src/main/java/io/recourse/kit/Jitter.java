package io.recourse.kit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The one source of deterministic jitter (DESIGN §6.2, §7.2, §8): SHA-256 over the UTF-8 bytes of a
 * key, the first 8 bytes of the digest as a big-endian long, its top 53 bits mapped uniformly onto
 * a {@link Range}. A pure function of the key, so replaying the same inputs gives the same
 * instants. The owners' jitter interfaces ({@code interactive.JitterSource},
 * {@code routing.JitterSource}) are typed views of it, each with its key and range.
 */
public final class Jitter {

    /** Where a jitter value lies. */
    public enum Range {
        /** [0, 1): the interactive schedule maps it onto [−ratio, +ratio) itself. */
        UNIT,
        /** [−1, 1): a delay is multiplied by {@code 1 + fraction × value}. */
        SIGNED
    }

    private Jitter() {
    }

    /** The jitter value of {@code key} in {@code range}. */
    public static double hashed(String key, Range range) {
        long bits = ByteBuffer.wrap(sha256(key)).getLong() >>> 11; // 53 bits
        return switch (range) {
            case UNIT -> bits * 0x1.0p-53;
            case SIGNED -> (bits / (double) (1L << 53)) * 2.0 - 1.0;
        };
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
