package io.recourse.routing;

import io.recourse.kit.Jitter;

/**
 * The injectable source of jitter (DESIGN §7.2, §8): a deterministic value in [-1, 1] for a key,
 * e.g. {@code retry|<run>|<attempt>|<ordinal>} or {@code ladder|<health key>|<step>}. Decisions
 * multiply a nominal delay by {@code 1 + fraction × unit(key)}, so replaying the same inputs gives
 * the same instants.
 */
@FunctionalInterface
public interface JitterSource {

    /** A value in [-1, 1], a pure function of {@code key}. */
    double unit(String key);

    /** SHA-256 of the key mapped uniformly onto [-1, 1) ({@link Jitter.Range#SIGNED}): the production source. */
    static JitterSource hashing() {
        return key -> Jitter.hashed(key, Jitter.Range.SIGNED);
    }

    /** No jitter: every delay is its nominal value (tests and the demo's exact timeline). */
    static JitterSource none() {
        return key -> 0.0;
    }

    /** The same value for every key, clamped to [-1, 1]. */
    static JitterSource constant(double unit) {
        double u = Math.max(-1.0, Math.min(1.0, unit));
        return key -> u;
    }
}
