package io.recourse.classification.hints;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude Code's legacy usage-limit message, whose reset instant follows a pipe:
 * {@code Claude AI usage limit reached|1767225600} (DESIGN §5.2).
 *
 * <p>Accepted: {@code |} immediately followed by 9–11 digits (epoch <b>seconds</b>) or 12–14
 * digits (epoch milliseconds) not followed by another digit or a decimal point; the first such
 * suffix in the text counts. Absolute, so no base is needed.
 */
public final class ClaudeEpochSuffix {

    private static final Pattern SUFFIX = Pattern.compile("\\|(\\d{9,14}+)(?![\\d.])");

    private ClaudeEpochSuffix() {
    }

    /**
     * @param text the message text; {@code null} allowed
     * @return the reset instant (UTC), or empty when no epoch suffix is present
     */
    public static Optional<Instant> parse(String text) {
        int bar = text == null ? -1 : text.indexOf('|');
        if (bar < 0) {
            return Optional.empty(); // every match starts at a '|': search from the first
        }
        Matcher m = SUFFIX.matcher(text);
        return m.find(bar) ? EpochInstant.parse(m.group(1)) : Optional.empty();
    }
}
