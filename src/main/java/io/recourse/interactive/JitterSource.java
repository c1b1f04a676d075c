package io.recourse.interactive;

import io.recourse.kit.Jitter;

/**
 * Where the bounded jitter of a retry delay comes from (DESIGN §6.2): a number in [0, 1) per
 * (session, chain start generation, attempt). The schedule maps it linearly onto
 * [−ratio, +ratio) of the nominal delay ({@link RetrySchedule}). Injectable so tests pin it;
 * production uses {@link #hashed()}, which is deterministic, so reprocessing the same chain gives
 * the same {@code retry_at}.
 */
@FunctionalInterface
public interface JitterSource {

    /**
     * A value in [0, 1) for this attempt.
     *
     * @param chainStartGeneration the failed user-prompt generation that started the chain
     * @param attempt              1..max attempts
     */
    double unit(String sessionId, int chainStartGeneration, int attempt);

    /**
     * The default source: SHA-256 over the UTF-8 bytes of
     * {@code "recourse.kanban.jitter/" + session_id + "/" + chain_start_generation + "/" + attempt}
     * (injective: the two numbers after the last two {@code /} never contain one); the first 8 bytes
     * of the digest as a big-endian long, top 53 bits, scaled by 2<sup>−53</sup> into [0, 1)
     * ({@link Jitter.Range#UNIT}).
     */
    static JitterSource hashed() {
        return (sessionId, chainStart, attempt) -> Jitter.hashed(
                "recourse.kanban.jitter/" + sessionId + "/" + chainStart + "/" + attempt, Jitter.Range.UNIT);
    }

    /** A constant source (tests): {@code unit} must be in [0, 1). */
    static JitterSource fixed(double unit) {
        if (!(unit >= 0 && unit < 1)) {
            throw new IllegalArgumentException("jitter unit must be in [0, 1): " + unit);
        }
        return (sessionId, chainStart, attempt) -> unit;
    }
}
