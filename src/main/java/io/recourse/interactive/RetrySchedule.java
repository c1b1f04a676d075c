package io.recourse.interactive;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The interactive retry schedule (DESIGN §6.2): attempt {@code i} waits its nominal delay with
 * bounded jitter, and a validated {@code retry_after} is a lower bound, never a replacement:
 * {@code retry_at = max(now + jittered nominal, retry_after)}, i.e.
 * {@code delay = max(jittered nominal, hint − now)}. Millisecond precision (the time index and the
 * Avro records store epoch milliseconds).
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
     * The exact UTC instant of {@code attempt}: {@code max(now + jitteredDelay, retryAfter)}.
     *
     * @param now        processing time (UTC)
     * @param retryAfter the validated throttle hint of the failure, or {@code null}
     */
    public static Instant retryAt(InteractiveConfig config, JitterSource jitter, String sessionId,
                                  int chainStartGeneration, int attempt, Instant now, Instant retryAfter) {
        Instant jittered = now.truncatedTo(ChronoUnit.MILLIS)
                .plus(jitteredDelay(config, jitter, sessionId, chainStartGeneration, attempt));
        if (retryAfter == null) {
            return jittered;
        }
        Instant hint = retryAfter.truncatedTo(ChronoUnit.MILLIS);
        return hint.isAfter(jittered) ? hint : jittered;
    }
}
