package io.recourse.classification.hints;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Go-style durations ({@code time.ParseDuration}) as in OpenAI's {@code x-ratelimit-reset-requests}
 * and {@code x-ratelimit-reset-tokens} headers (DESIGN §5.2).
 *
 * <p>Accepted: one or more {@code <decimal><unit>} parts without spaces, units {@code ns},
 * {@code us}/{@code µs}/{@code μs}, {@code ms}, {@code s}, {@code m}, {@code h}: {@code 1s},
 * {@code 6m0s}, {@code 1h2m3.5s}, {@code 250ms}, {@code 2.8s}; and the bare {@code 0}. A leading
 * {@code +} is allowed; negative durations, missing units and other text are empty. Digits are
 * ASCII, as Go's: {@code ３s} or {@code ٣s} is empty. Parsed by hand (no regex), at most 64 characters.
 */
public final class GoDuration {

    private GoDuration() {
    }

    /**
     * @param value the duration text; {@code null} allowed
     * @return the duration, or empty when it is not a non-negative Go duration
     */
    public static Optional<Duration> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String s = value.strip();
        if (s.isEmpty() || s.length() > 64) {
            return Optional.empty();
        }
        if (s.charAt(0) == '+') {
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        if (s.isEmpty()) {
            return Optional.empty();
        }
        Duration total = Duration.ZERO;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (isAsciiDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(start, i);
            if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
                return Optional.empty();
            }
            int unitStart = i;
            while (i < s.length() && !isAsciiDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            long unitNanos = unitNanos(s.substring(unitStart, i));
            if (unitNanos == 0) {
                return Optional.empty();
            }
            Optional<Duration> part = Durations.of(number.endsWith(".") ? number + "0" : number, unitNanos);
            if (part.isEmpty()) {
                return Optional.empty();
            }
            total = total.plus(part.get());
            if (total.compareTo(Durations.MAX) > 0) {
                return Optional.empty();
            }
        }
        return Optional.of(total);
    }

    /**
     * Parses an {@code x-ratelimit-reset-requests} / {@code x-ratelimit-reset-tokens} value as a
     * Go duration relative to {@code base}.
     *
     * @param value the header value; {@code null} allowed
     * @param base  the carrying signal's {@code occurred_at}
     * @return the reset instant (UTC), or empty
     */
    public static Optional<Instant> resetAt(String value, Instant base) {
        return parse(value).flatMap(d -> Durations.plus(base, d));
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 0L;
        };
    }
}
