package io.recourse.classification.hints;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Validation of timing hints (DESIGN §5.2): a hint counts only when it is strictly after the
 * terminal frame's {@code occurred_at} and not beyond {@code terminalAt + horizon}; otherwise it
 * is dropped, never guessed.
 */
public final class HintValidator {

    /** The default horizon: 7 days after the terminal frame. */
    public static final Duration DEFAULT_HORIZON = Duration.ofDays(7);

    private HintValidator() {
    }

    /**
     * @param hint       the parsed hint (UTC); {@code null} gives empty
     * @param terminalAt the terminal frame's {@code occurred_at}
     * @param horizon    how far after {@code terminalAt} a hint may lie (inclusive), non-negative
     * @return the hint when {@code terminalAt < hint <= terminalAt + horizon}, else empty
     * @throws NullPointerException when {@code terminalAt} or {@code horizon} is null
     * @throws IllegalArgumentException when {@code horizon} is negative
     */
    public static Optional<Instant> validate(Instant hint, Instant terminalAt, Duration horizon) {
        Objects.requireNonNull(terminalAt, "terminalAt");
        Objects.requireNonNull(horizon, "horizon");
        if (horizon.isNegative()) {
            throw new IllegalArgumentException("horizon must not be negative: " + horizon);
        }
        if (hint == null || !hint.isAfter(terminalAt)) {
            return Optional.empty();
        }
        if (Duration.between(terminalAt, hint).compareTo(horizon) > 0) {
            return Optional.empty();
        }
        return Optional.of(hint);
    }

    /** {@link #validate(Instant, Instant, Duration)} with the {@link #DEFAULT_HORIZON}. */
    public static Optional<Instant> validate(Instant hint, Instant terminalAt) {
        return validate(hint, terminalAt, DEFAULT_HORIZON);
    }
}
