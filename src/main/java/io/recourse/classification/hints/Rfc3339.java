package io.recourse.classification.hints;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * RFC 3339 instants, as in {@code anthropic-ratelimit-requests-reset: 2026-06-01T12:00:37Z} and
 * string-valued {@code resets_at} body fields (DESIGN §5.2).
 *
 * <p>Accepted: {@code yyyy-MM-dd'T'HH:mm:ss[.fraction](Z|±hh:mm)}, with {@code t}/{@code z} in
 * either case, a space instead of {@code T}, optional surrounding whitespace or double quotes.
 * An offset is required: a local date-time without one is empty.
 */
public final class Rfc3339 {

    private static final Pattern SHAPE = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:[Zz]|[+-]\\d{2}:\\d{2})");

    private Rfc3339() {
    }

    /**
     * @param value the header or field value; {@code null} allowed
     * @return the instant (UTC), or empty when the value is not an RFC 3339 date-time with offset
     */
    public static Optional<Instant> parse(String value) {
        if (value == null || value.length() > 64) {
            return Optional.empty();
        }
        String trimmed = value.strip();
        if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
            trimmed = trimmed.substring(1, trimmed.length() - 1);
        }
        if (!SHAPE.matcher(trimmed).matches()) {
            return Optional.empty();
        }
        String normalized = trimmed.toUpperCase(Locale.ROOT).replace(' ', 'T');
        try {
            return Optional.of(OffsetDateTime.parse(normalized, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
