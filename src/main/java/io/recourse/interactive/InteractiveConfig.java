package io.recourse.interactive;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The interactive owner's numbers (DESIGN §6.2, §6.3, §8). Defaults: 5 attempts at nominal
 * 5, 10, 20, 40, 60 s, jitter ±20 %, {@code rate_limited} only with a hint ≤ 60 s, staleness bound
 * 5 min, dispatch timeout 30 s, session state ttl 7 days, outcome timeout 30 min. The constructor throws
 * {@link IllegalArgumentException} naming the field when the delay list is empty, a duration is not
 * positive or the jitter ratio is outside [0, 1).
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
 * @param outcomeTimeout    an {@code awaiting_outcome} chain whose retried turn produced no outcome
 *                          within this after the RetryCommand's {@code issued_at} → {@code manual}
 *                          ({@code outcome_timeout}); default 30 min — well above a long agent turn,
 *                          far below the evidence idle bound (2 h) that would end it as
 *                          {@code outcome_unknown} only if the turn had started
 */
public record InteractiveConfig(
        List<Duration> nominalDelays,
        double jitterRatio,
        Duration rateLimitHintMax,
        Duration stalenessBound,
        Duration dispatchTimeout,
        Duration sessionTtl,
        Duration outcomeTimeout) {

    /** The default outcome timeout (30 min). */
    public static final Duration DEFAULT_OUTCOME_TIMEOUT = Duration.ofMinutes(30);

    /** A configuration with the default outcome timeout. */
    public InteractiveConfig(List<Duration> nominalDelays, double jitterRatio, Duration rateLimitHintMax,
                             Duration stalenessBound, Duration dispatchTimeout, Duration sessionTtl) {
        this(nominalDelays, jitterRatio, rateLimitHintMax, stalenessBound, dispatchTimeout, sessionTtl,
                DEFAULT_OUTCOME_TIMEOUT);
    }

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
        positive("outcomeTimeout", outcomeTimeout);
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
                Duration.ofDays(7),
                DEFAULT_OUTCOME_TIMEOUT);
    }

    /**
     * This configuration for a clock running {@code n}× faster (DESIGN §8, demo {@code --time-scale N}):
     * every duration divided by {@code n}, at least 1 ms; the jitter ratio is unchanged. For a policy
     * that runs on a real clock only: where the injected clock itself is scaled
     * ({@code io.recourse.runtime.ScaledTime}, as {@code recourse demo} does) keep the durations as
     * they are, or they would shrink twice.
     *
     * @throws IllegalArgumentException when {@code n} is not a finite number ≥ 1
     */
    public InteractiveConfig timeScaled(double n) {
        if (!(n >= 1) || Double.isInfinite(n)) {
            throw new IllegalArgumentException("time scale must be a finite number >= 1: " + n);
        }
        return new InteractiveConfig(nominalDelays.stream().map(d -> scale(d, n)).toList(), jitterRatio,
                scale(rateLimitHintMax, n), scale(stalenessBound, n), scale(dispatchTimeout, n), scale(sessionTtl, n),
                scale(outcomeTimeout, n));
    }

    private static Duration scale(Duration d, double n) {
        return Duration.ofMillis(Math.max(1, Math.round(d.toMillis() / n)));
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
