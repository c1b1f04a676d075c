package io.recourse.classification.hints;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timing hints written in prose by providers and agents (DESIGN §5.2).
 *
 * <p>{@link #relative(String, Instant)} — a trigger, then a duration, relative to {@code base}:
 * <ul>
 *   <li>triggers: {@code resets in}, {@code reset in}, {@code try again in|after},
 *       {@code retry in|after} (case-insensitive), and the header written as text
 *       {@code Retry-After: 3600} / {@code retry-after=60} (a bare number is seconds) and
 *       {@code retry-after-ms: 2500};</li>
 *   <li>durations: one to five {@code <number><unit>} parts, optionally separated by spaces,
 *       commas or "and": {@code 4hr 19min}, {@code 2 hours}, {@code 20s}, {@code 1m30s},
 *       {@code 25.46s}, {@code 30 seconds}, {@code 1 hour and 5 minutes}; units
 *       ms/millisecond(s), s/sec(s)/second(s), m/min(s)/minute(s), h/hr(s)/hour(s), d/day(s);</li>
 *   <li>not a provider hint, so ignored: a client's own backoff — {@code Retrying in 5s…},
 *       {@code will retry in 3s}, or any trigger followed closely by {@code attempt}
 *       ({@code retry in 4 seconds (attempt 2/10)}).</li>
 * </ul>
 *
 * <p>{@link #wallClock(String, Instant)} — {@code resets|reset|try again|retry [at] <time> <zone>}:
 * {@code resets 9:10pm (UTC)}, {@code resets at 21:10 UTC}, {@code resets at 4:00 AM UTC},
 * {@code resets 9:10pm (America/New_York)}. The time is {@code H:mm} (24 h) or {@code h[:mm] am|pm};
 * the zone must be explicit: {@code UTC}, {@code GMT}, {@code Z}, {@code ±hh:mm}/{@code ±hhmm},
 * {@code UTC±h[:mm]}, or a region id, optionally in parentheses. It resolves to the next
 * occurrence strictly after {@code base}. Without a zone the result is empty.
 *
 * <p>{@link #epochField(String)} — {@code reset_time: 1752624000}, {@code resets_at=1780326300},
 * {@code reset_at: 2026-06-01T15:00:00Z}: epoch seconds/milliseconds or RFC 3339 after a
 * reset field name in text.
 *
 * <p>{@link #parse(String, Instant)} tries {@link ClaudeEpochSuffix}, then the epoch field, the
 * relative forms and the wall-clock forms, and returns the first found. Texts above 64 KiB are
 * read up to that length.
 */
public final class TextHints {

    static final int MAX_CHARS = 64 * 1024;

    private static final String UNIT = "(milliseconds?|msecs?|ms|minutes?|mins?|m|seconds?|secs?|s"
            + "|hours?|hrs?|h|days?|d)(?![A-Za-z])";
    private static final String NUMBER = "(\\d{1,9}+(?:\\.\\d{1,9}+)?)";

    private static final Pattern RELATIVE_TRIGGER = Pattern.compile(
            "(?i)(?<![A-Za-z])(?:(will\\s{1,4}+)?(retrying|resets?|try\\s{1,4}+again|retry)\\s{1,4}+(?:in|after)"
                    + "|(retry-after(?:-ms)?)[\"']?\\s{0,4}+[:=])\\s{0,4}+[\"']?");
    private static final Pattern DURATION_PART = Pattern.compile("(?i)" + NUMBER + "\\s{0,3}+" + UNIT);
    private static final Pattern PART_SEPARATOR = Pattern.compile("(?i)\\s{0,3}+(?:,|and)?\\s{0,3}+");
    private static final Pattern BARE_NUMBER = Pattern.compile(NUMBER + "(?![\\d.A-Za-z])");
    private static final Pattern ATTEMPT_NEARBY = Pattern.compile("(?i)attempt");

    private static final Pattern WALL_CLOCK = Pattern.compile(
            "(?i)(?<![A-Za-z])(?:resets?|try\\s{1,4}+again|retry)\\s{1,4}+(?:at\\s{1,4}+)?"
                    + "(\\d{1,2}+)(?::(\\d{2}))?\\s{0,2}+(am|pm|a\\.m\\.|p\\.m\\.)?"
                    + "\\s{0,3}+(?:\\(\\s{0,2}+)?"
                    + "((?:UTC|GMT)(?:[+-]\\d{1,2}+(?::?\\d{2})?)?|Z|[+-]\\d{2}:?\\d{2}"
                    + "|[A-Za-z]{2,32}+(?:/[A-Za-z0-9_+-]{2,32}+){1,2}+)(?![A-Za-z0-9])");

    private static final Pattern EPOCH_FIELD = Pattern.compile(
            "(?i)(?<![A-Za-z])resets?(?:_at|_time|At|Time)?[\"']?\\s{0,4}+[:=]\\s{0,4}+[\"']?"
                    + "(\\d{9,14}+(?![\\d.])|\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9}+)?(?:[Zz]|[+-]\\d{2}:\\d{2}))");

    private TextHints() {
    }

    /**
     * The first hint of any form in {@code text}; see the class doc for the order.
     *
     * @param text a message, stderr line or chunk; {@code null} allowed
     * @param base the carrying signal's {@code occurred_at}
     * @return the instant (UTC), or empty
     */
    public static Optional<Instant> parse(String text, Instant base) {
        return ClaudeEpochSuffix.parse(bounded(text))
                .or(() -> epochField(text))
                .or(() -> relative(text, base))
                .or(() -> wallClock(text, base));
    }

    /** The first relative hint ("resets in 4hr 19min", "try again in 20s"), or empty. */
    public static Optional<Instant> relative(String text, Instant base) {
        String t = bounded(text);
        if (t == null || base == null) {
            return Optional.empty();
        }
        Matcher trigger = startsOnly(RELATIVE_TRIGGER.matcher(t));
        for (boolean found = next(trigger, t, RELATIVE_STARTS, 0); found; found = next(trigger, t, RELATIVE_STARTS, trigger.end())) {
            String verb = trigger.group(2) == null ? "" : trigger.group(2).toLowerCase(Locale.ROOT);
            // "Retrying in 5s", "will retry in 3s": the client's own backoff, not the provider's word.
            boolean clientBackoff = verb.equals("retrying") || (trigger.group(1) != null && verb.equals("retry"));
            if (clientBackoff) {
                continue;
            }
            Optional<Duration> duration;
            int end;
            String header = trigger.group(3);
            if (header != null) {
                Matcher bare = BARE_NUMBER.matcher(t).region(trigger.end(), t.length());
                if (!bare.lookingAt()) {
                    continue;
                }
                boolean millis = header.toLowerCase(Locale.ROOT).endsWith("-ms");
                duration = Durations.of(bare.group(1), millis ? 1_000_000L : 1_000_000_000L);
                end = bare.end();
            } else {
                Matcher part = DURATION_PART.matcher(t).region(trigger.end(), t.length());
                Duration total = Duration.ZERO;
                int parts = 0;
                end = trigger.end();
                while (parts < 5 && part.lookingAt()) {
                    Optional<Duration> d = Durations.of(part.group(1), unitNanos(part.group(2)));
                    if (d.isEmpty()) {
                        break;
                    }
                    total = total.plus(d.get());
                    parts++;
                    end = part.end();
                    Matcher sep = PART_SEPARATOR.matcher(t).region(end, t.length());
                    int next = sep.lookingAt() ? sep.end() : end;
                    part.region(next, t.length());
                }
                duration = parts == 0 ? Optional.empty() : Optional.of(total);
            }
            if (duration.isEmpty() || attemptFollows(t, end)) {
                continue;
            }
            Optional<Instant> hint = Durations.plus(base, duration.get());
            if (hint.isPresent()) {
                return hint;
            }
        }
        return Optional.empty();
    }

    /** The first wall-clock hint with an explicit zone ("resets 9:10pm (UTC)"), or empty. */
    public static Optional<Instant> wallClock(String text, Instant base) {
        String t = bounded(text);
        if (t == null || base == null) {
            return Optional.empty();
        }
        Matcher m = startsOnly(WALL_CLOCK.matcher(t));
        for (boolean found = next(m, t, WALL_CLOCK_STARTS, 0); found; found = next(m, t, WALL_CLOCK_STARTS, m.end())) {
            Optional<Instant> hint = resolve(m, base);
            if (hint.isPresent()) {
                return hint;
            }
        }
        return Optional.empty();
    }

    /** The first epoch or RFC 3339 value after a reset field name ("reset_time: 1752624000"), or empty. */
    public static Optional<Instant> epochField(String text) {
        String t = bounded(text);
        if (t == null) {
            return Optional.empty();
        }
        Matcher m = startsOnly(EPOCH_FIELD.matcher(t));
        for (boolean found = next(m, t, EPOCH_FIELD_STARTS, 0); found; found = next(m, t, EPOCH_FIELD_STARTS, m.end())) {
            Optional<Instant> hint = EpochInstant.parse(m.group(1)).or(() -> Rfc3339.parse(m.group(1)));
            if (hint.isPresent()) {
                return hint;
            }
        }
        return Optional.empty();
    }

    private static Optional<Instant> resolve(Matcher m, Instant base) {
        int hour = Integer.parseInt(m.group(1));
        String minutes = m.group(2);
        String meridiem = m.group(3);
        if (minutes == null && meridiem == null) {
            return Optional.empty(); // "resets at 4 UTC" is too loose to be a time
        }
        int minute = minutes == null ? 0 : Integer.parseInt(minutes);
        if (meridiem != null) {
            if (hour < 1 || hour > 12) {
                return Optional.empty();
            }
            boolean pm = meridiem.toLowerCase(Locale.ROOT).startsWith("p");
            hour = hour % 12 + (pm ? 12 : 0);
        }
        if (hour > 23 || minute > 59) {
            return Optional.empty();
        }
        String zoneText = m.group(4);
        ZoneId zone;
        try {
            zone = zoneText.equalsIgnoreCase("Z") ? ZoneId.of("Z") : ZoneId.of(normalizeZone(zoneText));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
        try {
            ZonedDateTime candidate = base.atZone(zone).with(LocalTime.of(hour, minute));
            if (!candidate.toInstant().isAfter(base)) {
                candidate = candidate.plusDays(1).with(LocalTime.of(hour, minute));
            }
            return Optional.of(candidate.toInstant());
        } catch (DateTimeException e) {
            return Optional.empty(); // a base at the end of the time-line has no next day
        }
    }

    private static String normalizeZone(String zone) {
        String upper = zone.toUpperCase(Locale.ROOT);
        if (upper.equals("UTC") || upper.equals("GMT") || upper.startsWith("UTC+") || upper.startsWith("UTC-")
                || upper.startsWith("GMT+") || upper.startsWith("GMT-")) {
            return upper;
        }
        return zone;
    }

    /** A matcher whose region start reads as any other position: lookbehinds see before it, {@code ^} is the text's start. */
    private static Matcher startsOnly(Matcher m) {
        return m.useTransparentBounds(true).useAnchoringBounds(false);
    }

    /**
     * Exactly {@code m.find()} continuing at {@code from} (the previous match's end; matches are
     * never empty): every match starts at one of {@code lowerWords}, so the regex is tried only
     * there, in order, with {@code lookingAt} from that position (trying every position
     * of a long text was most of the hint time).
     */
    private static boolean next(Matcher m, String text, String[] lowerWords, int from) {
        int n = text.length();
        for (int p = firstOf(text, lowerWords, from); p >= 0; p = firstOf(text, lowerWords, p + 1)) {
            if (m.region(p, n).lookingAt()) {
                return true;
            }
        }
        return false;
    }

    /*
     * Where a match of each trigger regex can start (lower case, compared with ASCII case folded
     * as "(?i)" does): "will", "retrying", "retry", "retry-after", "reset(s)", "try again". A
     * text without any is not searched, and the search starts at the first of them.
     */
    private static final String[] RELATIVE_STARTS = {"will", "retr", "reset", "try"};
    private static final String[] WALL_CLOCK_STARTS = {"retr", "reset", "try"};
    private static final String[] EPOCH_FIELD_STARTS = {"reset"};

    /**
     * Index of the first occurrence from {@code from} of any of {@code lowerWords} in {@code text}, ASCII case folded; -1 when none.
     * Each word is looked for where its rarest letter occurs ({@link String#indexOf(int, int)}, in
     * either case), which skips most of a text without a word faster than reading each character.
     */
    static int firstOf(String text, String[] lowerWords, int from) {
        int best = -1;
        for (String w : lowerWords) {
            int p = firstOfWord(text, w, from, best < 0 ? Integer.MAX_VALUE : best);
            if (p >= 0) {
                best = p; // found before the best so far
            }
        }
        return best;
    }

    /** First index {@code p}, {@code from <= p < before}, where {@code lower} starts (ASCII case folded); -1 when none. */
    private static int firstOfWord(String text, String lower, int from, int before) {
        int at = anchorOf(lower);
        char lo = lower.charAt(at);
        char up = lo >= 'a' && lo <= 'z' ? (char) (lo - ('a' - 'A')) : lo;
        int start = from + at;
        int a = text.indexOf(lo, start);
        int b = up == lo ? -1 : text.indexOf(up, start);
        while (true) {
            int q = a < 0 ? b : b < 0 ? a : Math.min(a, b);
            if (q < 0 || q - at >= before) {
                return -1;
            }
            if (startsWithFolded(text, q - at, lower)) {
                return q - at;
            }
            if (q == a) {
                a = text.indexOf(lo, q + 1);
            } else {
                b = text.indexOf(up, q + 1);
            }
        }
    }

    /** Letters from the rarest to the most frequent in English text. */
    private static final String RARITY = "zqxjkvbpygfwmucldrhsnioate";

    private static final String[] WORDS = {"will", "retr", "reset", "try"};
    private static final int[] ANCHORS = {anchor("will"), anchor("retr"), anchor("reset"), anchor("try")};

    /** {@link #anchor}, looked up for the start words (constants: the same instances). */
    private static int anchorOf(String lower) {
        for (int k = 0; k < WORDS.length; k++) {
            if (WORDS[k] == lower) {
                return ANCHORS[k];
            }
        }
        return anchor(lower);
    }

    /** Index in {@code lower} of its rarest letter (a word's anchor). */
    private static int anchor(String lower) {
        int at = 0;
        int rank = Integer.MAX_VALUE;
        for (int k = 0; k < lower.length(); k++) {
            int r = RARITY.indexOf(lower.charAt(k));
            r = r < 0 ? -1 : r; // not a letter: rarer than any
            if (r < rank) {
                rank = r;
                at = k;
            }
        }
        return at;
    }

    private static boolean startsWithFolded(String text, int at, String lower) {
        if (at + lower.length() > text.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if (fold(text.charAt(at + k)) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static char fold(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    private static boolean attemptFollows(String text, int from) {
        Matcher m = ATTEMPT_NEARBY.matcher(text).region(from, Math.min(text.length(), from + 24));
        return m.find();
    }

    private static long unitNanos(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        if (u.startsWith("ms") || u.startsWith("milli")) {
            return 1_000_000L;
        }
        if (u.startsWith("m")) {
            return 60_000_000_000L;
        }
        if (u.startsWith("s")) {
            return 1_000_000_000L;
        }
        if (u.startsWith("h")) {
            return 3_600_000_000_000L;
        }
        return 86_400_000_000_000L;
    }

    private static String bounded(String text) {
        if (text == null || text.length() <= MAX_CHARS) {
            return text;
        }
        return text.substring(0, MAX_CHARS);
    }
}
