package io.recourse.classification.hints;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Shared arithmetic: decimal amounts of a unit to {@link Duration}, overflow-safe instants. */
final class Durations {

    /** Hints further away than this are nonsense whatever the horizon (about 30 years). */
    static final Duration MAX = Duration.ofDays(11_000);
    private static final long MAX_NANOS = MAX.toNanos();

    private Durations() {
    }

    /** {@code amount} (a non-negative decimal numeral) times {@code unitNanos}, if not above {@link #MAX}. */
    static Optional<Duration> of(String amount, long unitNanos) {
        if (unitNanos > 0 && amount.length() <= 18 && !amount.isEmpty() && amount.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // a whole ASCII number: the same value in long arithmetic, without BigDecimal
            long n = Long.parseLong(amount);
            if (n > MAX_NANOS / unitNanos) {
                return Optional.empty(); // n * unitNanos > MAX
            }
            long nanos = n * unitNanos;
            return Optional.of(Duration.ofSeconds(nanos / 1_000_000_000L, nanos % 1_000_000_000L));
        }
        try {
            BigDecimal nanos = new BigDecimal(amount).multiply(BigDecimal.valueOf(unitNanos));
            if (nanos.signum() < 0 || nanos.compareTo(BigDecimal.valueOf(MAX.getSeconds()).movePointRight(9)) > 0) {
                return Optional.empty();
            }
            BigDecimal[] secondsAndNanos = nanos.setScale(0, RoundingMode.HALF_UP)
                    .divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
            return Optional.of(Duration.ofSeconds(secondsAndNanos[0].longValueExact(),
                    secondsAndNanos[1].longValueExact()));
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    static Optional<Instant> plus(Instant base, Duration duration) {
        if (base == null || duration == null || duration.isNegative() || duration.compareTo(MAX) > 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(base.plus(duration));
        } catch (DateTimeException | ArithmeticException e) {
            return Optional.empty();
        }
    }
}
