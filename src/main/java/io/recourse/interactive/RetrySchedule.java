package io.recourse.interactive;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The interactive retry schedule (DESIGN §6.2, §8): attempt {@code i} waits its nominal delay with
 * bounded jitter from an anchor, and a validated {@code retry_after} is a lower bound, never a
 * replacement: {@code retry_at = max(anchor + jittered nominal, anchor + (retry_after − hint origin))}.
 * The anchor is the failing turn's record time (the broker append time of its terminal frame), so
 * the same failure gives the same {@code retry_at} however late it is processed; the hint is a delay
 * measured on the clock it was resolved against (the terminal frame's {@code occurred_at}), so a
 * gateway clock skewed by minutes neither stretches nor cancels it. Millisecond precision (the time
 * index and the Avro records store epoch milliseconds).
 */
public final class RetrySchedule {

    private RetrySchedule() {
    }

    /**
     * The jittered delay before {@code attempt}: {@code round(nominal_ms × (1 + ratio × (2u − 1)))}
     * with {@code u} from {@code jitter}, so within ±ratio of the nominal delay.
     *
     * @throws IllegalArgumentException when attempt is outside 1..max or the source returns a value
     *                                  outside [0, 1)
     */
    public static Duration jitteredDelay(InteractiveConfig config, JitterSource jitter,
                                         String sessionId, int chainStartGeneration, int attempt) {
        long nominal = config.nominalDelay(attempt).toMillis();
        double u = jitter.unit(sessionId, chainStartGeneration, attempt);
        if (!(u >= 0 && u < 1)) {
            throw new IllegalArgumentException("jitter source returned " + u + ", outside [0, 1)");
        }
        return Duration.ofMillis(Math.round(nominal * (1 + config.jitterRatio() * (2 * u - 1))));
    }

    /**
     * The exact UTC instant of {@code attempt} with an absolute hint:
     * {@code max(anchor + jitteredDelay, retryAfter)}.
     *
     * @param anchor     the instant the delay counts from (UTC)
     * @param retryAfter the validated throttle hint of the failure, or {@code null}
     */
    public static Instant retryAt(InteractiveConfig config, JitterSource jitter, String sessionId,
                                  int chainStartGeneration, int attempt, Instant anchor, Instant retryAfter) {
        return retryAt(config, jitter, sessionId, chainStartGeneration, attempt, anchor, retryAfter, null);
    }

    /**
     * The exact UTC instant of {@code attempt}:
     * {@code max(anchor + jitteredDelay, anchor + max(0, retryAfter − hintOrigin))}; with a
     * {@code null} {@code hintOrigin} the hint is taken as an absolute instant,
     * {@code max(anchor + jitteredDelay, retryAfter)}.
     *
     * @param anchor     the failing turn's record time on the owner's clock (UTC)
     * @param retryAfter the validated throttle hint of the failure, or {@code null}
     * @param hintOrigin the instant {@code retryAfter} was resolved against (the terminal frame's
     *                   {@code occurred_at}, the gateway's clock), or {@code null}
     */
    public static Instant retryAt(InteractiveConfig config, JitterSource jitter, String sessionId,
                                  int chainStartGeneration, int attempt, Instant anchor, Instant retryAfter,
                                  Instant hintOrigin) {
        Instant from = anchor.truncatedTo(ChronoUnit.MILLIS);
        Instant jittered = from.plus(jitteredDelay(config, jitter, sessionId, chainStartGeneration, attempt));
        if (retryAfter == null) {
            return jittered;
        }
        Instant hint;
        if (hintOrigin == null) {
            hint = retryAfter.truncatedTo(ChronoUnit.MILLIS);
        } else {
            long wait = retryAfter.toEpochMilli() - hintOrigin.toEpochMilli();
            hint = from.plusMillis(Math.max(0, wait));
        }
        return hint.isAfter(jittered) ? hint : jittered;
    }
}
