package io.recourse.classification.hints;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code retry-after} and {@code retry-after-ms} HTTP headers (RFC 9110 §10.2.3; DESIGN §5.2).
 */
public final class RetryAfterHeader {

    private static final Pattern DECIMAL = Pattern.compile("\\s*+(\\d{1,12}+(?:\\.\\d{1,9}+)?)\\s*+");

    private RetryAfterHeader() {
    }

    /**
     * Parses a {@code retry-after} value.
     *
     * <p>Accepted: delta seconds, an integer or a decimal ({@code 37}, {@code 2.5}), relative to
     * {@code base}; or an HTTP-date in RFC 1123 form ({@code Wed, 21 Oct 2026 07:28:00 GMT}),
     * absolute. Negative, empty or other values are empty.
     *
     * @param value the header value; {@code null} allowed
     * @param base  the carrying signal's {@code occurred_at}
     * @return the instant (UTC) after which a retry is allowed, or empty
     */
    public static Optional<Instant> parse(String value, Instant base) {
        if (value == null || value.length() > 64) {
            return Optional.empty();
        }
        Matcher m = DECIMAL.matcher(value);
        if (m.matches()) {
            return Durations.of(m.group(1), 1_000_000_000L).flatMap(d -> Durations.plus(base, d));
        }
        try {
            return Optional.of(ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses a {@code retry-after-ms} value: delta <b>milliseconds</b>, integer or decimal
     * ({@code 2500}, {@code 1234.5}), relative to {@code base}.
     *
     * @param value the header value; {@code null} allowed
     * @param base  the carrying signal's {@code occurred_at}
     * @return the instant (UTC), or empty
     */
    public static Optional<Instant> parseMillis(String value, Instant base) {
        if (value == null || value.length() > 64) {
            return Optional.empty();
        }
        Matcher m = DECIMAL.matcher(value);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Durations.of(m.group(1), 1_000_000L).flatMap(d -> Durations.plus(base, d));
    }
}
