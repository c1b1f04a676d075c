package io.recourse.interactive;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The interactive owner's numbers (DESIGN §6.2, §6.3, §8). Defaults: 5 attempts at nominal
 * 5, 10, 20, 40, 60 s, jitter ±20 %, {@code rate_limited} only with a hint ≤ 60 s, staleness bound
 * 5 min, dispatch timeout 30 s, session state ttl 7 days.
 *
 * @param nominalDelays     delay before attempt {@code i} at index {@code i - 1}; its size is the
 *                          attempt budget ({@code max_attempts})
 * @param jitterRatio       bounded jitter as a fraction of the nominal delay, in [0, 1)
 * @param rateLimitHintMax  the longest validated {@code retry_after} (measured from the terminal
 *                          frame's {@code occurred_at}) that lets {@code rate_limited} retry
 * @param stalenessBound    evidence older than this (processing time − TurnOutcome record time)
 *                          never authorizes automatic work; a retry timer overdue by more becomes
 *                          {@code manual} ({@code overdue_after_restart})
 * @param dispatchTimeout   no ack / TurnStarted within this after {@code max(issued_at, task RUNNING)}
 *                          → {@code manual} ({@code dispatch_unconfirmed})
 * @param sessionTtl        idle state expires this long after the last event when no chain is armed
 * @throws IllegalArgumentException when a delay list is empty, a duration is not positive or the
 *                                  jitter ratio is outside [0, 1)
 */
public record InteractiveConfig(
        List<Duration> nominalDelays,
        double jitterRatio,
        Duration rateLimitHintMax,
        Duration stalenessBound,
        Duration dispatchTimeout,
        Duration sessionTtl) {

    public InteractiveConfig {
        nominalDelays = List.copyOf(nominalDelays);
        if (nominalDelays.isEmpty()) {
            throw new IllegalArgumentException("nominalDelays must not be empty");
        }
        nominalDelays.forEach(d -> positive("nominalDelays[]", d));
        if (!(jitterRatio >= 0 && jitterRatio < 1)) {
            throw new IllegalArgumentException("jitterRatio must be in [0, 1): " + jitterRatio);
        }
        positive("rateLimitHintMax", rateLimitHintMax);
        positive("stalenessBound", stalenessBound);
        positive("dispatchTimeout", dispatchTimeout);
        positive("sessionTtl", sessionTtl);
    }

    /** DESIGN §6.2 / §6.3 / §8 defaults. */
    public static InteractiveConfig defaults() {
        return new InteractiveConfig(
                List.of(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20),
                        Duration.ofSeconds(40), Duration.ofSeconds(60)),
                0.20,
                Duration.ofSeconds(60),
                Duration.ofMinutes(5),
                Duration.ofSeconds(30),
                Duration.ofDays(7));
    }

    /** The attempt budget: the number of nominal delays (5 by default). */
    public int maxAttempts() {
        return nominalDelays.size();
    }

    /**
     * Nominal delay before {@code attempt}.
     *
     * @throws IllegalArgumentException when attempt is outside 1..{@link #maxAttempts()}
     */
    public Duration nominalDelay(int attempt) {
        if (attempt < 1 || attempt > maxAttempts()) {
            throw new IllegalArgumentException("attempt " + attempt + " outside 1.." + maxAttempts());
        }
        return nominalDelays.get(attempt - 1);
    }

    private static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
