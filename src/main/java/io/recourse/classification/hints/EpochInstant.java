package io.recourse.classification.hints;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Unix epoch instants as providers send them: {@code resets_at: 1780326300}, Codex's
 * {@code x-codex-primary-reset-at}, {@code reset_time: 1752624000000}.
 *
 * <p>Accepted: an optionally quoted, optionally surrounded-by-whitespace decimal integer of 9 to
 * 11 digits (epoch <b>seconds</b>, optionally with up to 9 fraction digits) or of 12 to 14 digits
 * (epoch <b>milliseconds</b>). Anything else is empty. Implements DESIGN §5.2 ("epochs").
 */
public final class EpochInstant {

    private static final Pattern EPOCH = Pattern.compile("\\s*+\"?(\\d{9,14}+)(?:\\.(\\d{1,9}+))?\"?\\s*+");

    private EpochInstant() {
    }

    /**
     * @param value header/body value; {@code null} allowed
     * @return the instant (UTC), or empty when the value is not an epoch in seconds or milliseconds
     */
    public static Optional<Instant> parse(String value) {
        if (value == null || value.length() > 64) {
            return Optional.empty();
        }
        Matcher m = EPOCH.matcher(value);
        if (!m.matches()) {
            return Optional.empty();
        }
        String digits = m.group(1);
        String fraction = m.group(2);
        long number = Long.parseLong(digits);
        if (digits.length() <= 11) {
            long nanos = fraction == null ? 0 : Long.parseLong((fraction + "000000000").substring(0, 9));
            return Optional.of(Instant.ofEpochSecond(number, nanos));
        }
        if (fraction != null) {
            return Optional.empty();
        }
        return Optional.of(Instant.ofEpochMilli(number));
    }

    /** Epoch seconds as a JSON number or numeric text (used for body fields). */
    static Optional<Instant> ofSeconds(double seconds) {
        if (!(seconds >= 1e8 && seconds < 1e11)) {
            return Optional.empty();
        }
        long whole = (long) Math.floor(seconds);
        long nanos = Math.round((seconds - whole) * 1e9);
        return Optional.of(Instant.ofEpochSecond(whole, Math.min(nanos, 999_999_999)));
    }
}
