package io.recourse.classification.hints;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for provider timing hints and their validation (DESIGN §5.2). Every parser is total:
 * unparseable input gives {@link Optional#empty()}, never an exception. Relative forms resolve
 * against {@code at}, the carrying frame's {@code occurred_at} (UTC).
 *
 * <p>Minimal implementation owned by the catalogue branch; a fuller set of parsers (with property
 * tests) is expected under this package — when it lands, the catalogue's
 * {@code HintExtractors} switches to it.
 */
public final class TimingHints {

    /** Default validation horizon: a hint more than 7 days after the terminal frame is dropped. */
    public static final Duration DEFAULT_HORIZON = Duration.ofDays(7);

    private static final Pattern DECIMAL = Pattern.compile("\\d{1,12}(?:\\.\\d{1,9})?");
    private static final Pattern GO_PART = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,9})?)(ms|h|m|s)");
    private static final Pattern RELATIVE = Pattern.compile(
            "(?i)(?<![a-z])(?:resets?|try\\s{1,3}again|retry|available\\s{1,3}again|wait)\\s{1,3}in\\s{1,3}"
                    + "((?:\\d{1,6}(?:\\.\\d{1,3})?\\s{0,2}(?:days?|d|hours?|hrs?|hr|h|minutes?|mins?|min|m|seconds?|secs?|sec|s|ms)"
                    + "(?![a-z])[\\s,]{0,3}(?:and\\s{1,3})?){1,4})");
    private static final Pattern RELATIVE_PART = Pattern.compile(
            "(?i)(\\d{1,6}(?:\\.\\d{1,3})?)\\s{0,2}(days?|d|hours?|hrs?|hr|h|minutes?|mins?|min|ms|m|seconds?|secs?|sec|s)(?![a-z])");
    private static final Pattern WALL_CLOCK = Pattern.compile(
            "(?i)(?<![a-z])(?:resets?|try\\s{1,3}again|available\\s{1,3}again)(?:\\s{1,3}(?:at|after))?\\s{1,3}"
                    + "(\\d{1,2})(?::(\\d{2}))?\\s{0,2}(am|pm)?\\s{0,2}\\(?\\s{0,2}"
                    + "(UTC|GMT|Z|[A-Z][A-Za-z_]{1,20}/[A-Za-z_]{1,30}(?:/[A-Za-z_]{1,30})?|[+-]\\d{2}:?\\d{2})(?![A-Za-z])");
    private static final Pattern EPOCH_SUFFIX = Pattern.compile("\\|(\\d{10}|\\d{13})\\s{0,4}$");

    private TimingHints() {
    }

    /** {@code retry-after}: delay seconds (decimals allowed) or an HTTP-date (RFC 1123). */
    public static Optional<Instant> retryAfter(String value, Instant at) {
        if (value == null) {
            return Optional.empty();
        }
        String v = value.trim();
        if (DECIMAL.matcher(v).matches()) {
            return seconds(new BigDecimal(v), at);
        }
        try {
            return Optional.of(ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** {@code retry-after-ms}: delay in milliseconds. */
    public static Optional<Instant> retryAfterMs(String value, Instant at) {
        if (value == null || !DECIMAL.matcher(value.trim()).matches()) {
            return Optional.empty();
        }
        return seconds(new BigDecimal(value.trim()).movePointLeft(3), at);
    }

    /** Go-style durations of {@code x-ratelimit-reset-*}: {@code 1s}, {@code 6m0s}, {@code 360ms}, {@code 2.8s}. */
    public static Optional<Duration> goDuration(String value) {
        if (value == null || value.isBlank() || value.length() > 40) {
            return Optional.empty();
        }
        Matcher m = GO_PART.matcher(value.trim());
        int end = 0;
        BigDecimal millis = BigDecimal.ZERO;
        while (m.find()) {
            if (m.start() != end) {
                return Optional.empty();
            }
            end = m.end();
            millis = millis.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitMillis(m.group(2)))));
        }
        if (end != value.trim().length()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(millis.longValue()));
    }

    /** An RFC 3339 instant such as {@code 2026-06-01T12:00:37Z}. */
    public static Optional<Instant> rfc3339(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value.trim()).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Epoch seconds (10 digits) or milliseconds (13 digits). */
    public static Optional<Instant> epoch(String digits) {
        if (digits == null) {
            return Optional.empty();
        }
        String d = digits.trim();
        if (d.matches("\\d{9,11}")) {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(d)));
        }
        if (d.matches("\\d{12,14}")) {
            return Optional.of(Instant.ofEpochMilli(Long.parseLong(d)));
        }
        return Optional.empty();
    }

    /** Seconds (decimals allowed) after {@code at}. */
    public static Optional<Instant> seconds(BigDecimal seconds, Instant at) {
        if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(100L * 365 * 86400)) > 0) {
            return Optional.empty();
        }
        return Optional.of(at.plusMillis(seconds.movePointRight(3).longValue()));
    }

    /**
     * Relative text: "resets in 4hr 19min", "try again in 20s", "Please retry in 25.46s". A
     * client's own backoff ("Retrying in 5s") is not matched.
     */
    public static Optional<Instant> relativeText(String text, Instant at) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = RELATIVE.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        Matcher p = RELATIVE_PART.matcher(m.group(1));
        BigDecimal millis = BigDecimal.ZERO;
        while (p.find()) {
            millis = millis.add(new BigDecimal(p.group(1)).multiply(BigDecimal.valueOf(unitMillis(p.group(2)))));
        }
        return Optional.of(at.plusMillis(millis.longValue()));
    }

    /**
     * A wall-clock reset with an explicit zone ("resets 9:10pm (UTC)", "resets at 4:00 AM UTC",
     * "resets 5am (Europe/Berlin)"): its next occurrence after {@code at}. Unzoned times are
     * dropped.
     */
    public static Optional<Instant> zonedWallClock(String text, Instant at) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = WALL_CLOCK.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            int hour = Integer.parseInt(m.group(1));
            int minute = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            String ampm = m.group(3);
            if (ampm != null) {
                if (hour < 1 || hour > 12) {
                    return Optional.empty();
                }
                hour = hour % 12 + (ampm.equalsIgnoreCase("pm") ? 12 : 0);
            } else if (m.group(2) == null) {
                return Optional.empty(); // "resets 5 UTC" is too loose
            }
            ZoneId zone = zone(m.group(4));
            LocalTime time = LocalTime.of(hour, minute);
            LocalDate day = at.atZone(zone).toLocalDate();
            ZonedDateTime candidate = ZonedDateTime.of(day, time, zone);
            if (!candidate.toInstant().isAfter(at)) {
                candidate = ZonedDateTime.of(day.plusDays(1), time, zone);
            }
            return Optional.of(candidate.toInstant());
        } catch (DateTimeException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Claude's legacy "…usage limit reached|&lt;epoch&gt;" suffix. */
    public static Optional<Instant> claudeEpochSuffix(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = EPOCH_SUFFIX.matcher(text.length() > 64 ? text.substring(text.length() - 64) : text);
        return m.find() ? epoch(m.group(1)) : Optional.empty();
    }

    /**
     * Validates a hint (DESIGN §5.2): kept only when strictly after {@code terminalAt} and no more
     * than {@code horizon} after it.
     */
    public static Optional<Instant> validate(Instant hint, Instant terminalAt, Duration horizon) {
        if (hint == null || terminalAt == null || !hint.isAfter(terminalAt) || hint.isAfter(terminalAt.plus(horizon))) {
            return Optional.empty();
        }
        return Optional.of(hint);
    }

    private static ZoneId zone(String z) {
        String u = z.toUpperCase(Locale.ROOT);
        if (u.equals("UTC") || u.equals("GMT") || u.equals("Z")) {
            return ZoneOffset.UTC;
        }
        if (z.startsWith("+") || z.startsWith("-")) {
            String norm = z.contains(":") ? z : z.substring(0, 3) + ":" + z.substring(3);
            return ZoneOffset.of(norm);
        }
        return ZoneId.of(z);
    }

    private static long unitMillis(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        if (u.equals("ms")) {
            return 1;
        }
        return switch (u.charAt(0)) {
            case 'd' -> 86_400_000L;
            case 'h' -> 3_600_000L;
            case 'm' -> 60_000L;
            default -> 1_000L;
        };
    }
}
