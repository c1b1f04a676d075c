package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;

/** Properties of every timing-hint parser (DESIGN §5.2): round trips, totality, bounded time. */
class HintParserProperties {

    private static final Instant EARLIEST = Instant.parse("2001-09-09T01:46:40Z");

    @Provide
    Arbitrary<Instant> bases() {
        return Arbitraries.longs().between(1_000_000_000L, 4_000_000_000L)
                .flatMap(s -> Arbitraries.integers().between(0, 999).map(ms -> Instant.ofEpochSecond(s).plusMillis(ms)));
    }

    @Property
    void retryAfterDeltaSecondsRoundTrip(@ForAll("bases") Instant base,
            @ForAll @IntRange(min = 0, max = 10_000_000) int seconds, @ForAll @IntRange(min = 0, max = 999) int millis) {
        String value = millis == 0 ? Integer.toString(seconds) : String.format("%d.%03d", seconds, millis);

        assertThat(RetryAfterHeader.parse(value, base)).contains(base.plusSeconds(seconds).plusMillis(millis));
    }

    @Property
    void retryAfterHttpDatesRoundTrip(@ForAll("bases") Instant base,
            @ForAll @LongRange(min = 1_000_000_000L, max = 4_000_000_000L) long epochSeconds) {
        Instant instant = Instant.ofEpochSecond(epochSeconds);
        String value = DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));

        assertThat(RetryAfterHeader.parse(value, base)).contains(instant);
    }

    @Property
    void retryAfterMsRoundTrips(@ForAll("bases") Instant base, @ForAll @LongRange(min = 0, max = 100_000_000_000L) long ms) {
        assertThat(RetryAfterHeader.parseMillis(Long.toString(ms), base)).contains(base.plusMillis(ms));
    }

    @Property
    void goDurationsRoundTrip(@ForAll @IntRange(min = 0, max = 200) int hours, @ForAll @IntRange(min = 0, max = 59) int minutes,
            @ForAll @IntRange(min = 0, max = 59) int seconds, @ForAll @IntRange(min = 0, max = 999) int millis) {
        StringBuilder text = new StringBuilder();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        text.append(millis == 0 ? Integer.toString(seconds) : String.format("%d.%03d", seconds, millis)).append('s');
        Duration expected = Duration.ofHours(hours).plusMinutes(minutes).plusSeconds(seconds).plusMillis(millis);

        assertThat(GoDuration.parse(text.toString())).contains(expected);
    }

    @Property
    void goMillisecondDurationsRoundTrip(@ForAll("bases") Instant base, @ForAll @IntRange(min = 0, max = 100_000) int ms) {
        assertThat(GoDuration.resetAt(ms + "ms", base)).contains(base.plusMillis(ms));
    }

    @Property
    void rfc3339InstantsRoundTrip(@ForAll @LongRange(min = 1_000_000_000L, max = 4_000_000_000L) long epochSeconds,
            @ForAll @IntRange(min = 0, max = 999) int millis, @ForAll @IntRange(min = -12 * 4, max = 14 * 4) int quarterHours) {
        Instant instant = Instant.ofEpochSecond(epochSeconds).plusMillis(millis);
        ZoneOffset offset = ZoneOffset.ofTotalSeconds(quarterHours * 15 * 60);
        String value = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(offset));

        assertThat(Rfc3339.parse(value)).contains(instant);
    }

    @Property
    void epochSecondsAndMillisecondsRoundTrip(@ForAll @LongRange(min = 1_000_000_000L, max = 4_000_000_000L) long seconds,
            @ForAll @IntRange(min = 0, max = 999) int millis) {
        assertThat(EpochInstant.parse(Long.toString(seconds))).contains(Instant.ofEpochSecond(seconds));
        long epochMillis = seconds * 1000 + millis;
        assertThat(EpochInstant.parse(Long.toString(epochMillis))).contains(Instant.ofEpochMilli(epochMillis));
    }

    @Property
    void claudeSuffixRoundTrips(@ForAll @LongRange(min = 1_000_000_000L, max = 4_000_000_000L) long seconds,
            @ForAll("prose") String prefix) {
        assertThat(ClaudeEpochSuffix.parse(prefix + "|" + seconds)).contains(Instant.ofEpochSecond(seconds));
    }

    @Property
    void nestedBodyFieldsRoundTrip(@ForAll("bases") Instant base,
            @ForAll @LongRange(min = 1_000_000_000L, max = 4_000_000_000L) long resetsAt,
            @ForAll @IntRange(min = 0, max = 1_000_000) int resetsIn, @ForAll @IntRange(min = 0, max = 99_999) int delayCentis,
            @ForAll @IntRange(min = 0, max = 6) int depth) {
        String open = "{\"a\":[".repeat(depth);
        String close = "]}".repeat(depth);
        String delay = String.format("%d.%02ds", delayCentis / 100, delayCentis % 100);

        assertThat(JsonBodyHints.resetsAt(open + "{\"resets_at\":" + resetsAt + "}" + close))
                .contains(Instant.ofEpochSecond(resetsAt));
        assertThat(JsonBodyHints.resetsInSeconds(open + "{\"resets_in_seconds\":" + resetsIn + "}" + close, base))
                .contains(base.plusSeconds(resetsIn));
        assertThat(JsonBodyHints.retryDelay(open + "{\"retryDelay\":\"" + delay + "\"}" + close, base))
                .contains(base.plusMillis(delayCentis * 10L));
    }

    @Property
    void relativeProseRoundTrips(@ForAll("bases") Instant base, @ForAll @IntRange(min = 0, max = 99) int hours,
            @ForAll @IntRange(min = 0, max = 59) int minutes, @ForAll @IntRange(min = 1, max = 59) int seconds,
            @ForAll("triggers") String trigger, @ForAll("spellings") String[] units) {
        String text = "Error: limit reached. " + trigger + " " + hours + units[0] + " " + minutes + units[1] + " "
                + seconds + units[2] + ". Thanks";

        assertThat(TextHints.parse(text, base))
                .contains(base.plus(Duration.ofHours(hours).plusMinutes(minutes).plusSeconds(seconds)));
    }

    @Property
    void utcWallClocksResolveToTheNextOccurrence(@ForAll("bases") Instant base, @ForAll @IntRange(min = 0, max = 23) int hour,
            @ForAll @IntRange(min = 0, max = 59) int minute) {
        String text = String.format("rate limit resets at %02d:%02d UTC", hour, minute);

        Instant hint = TextHints.parse(text, base).orElseThrow();

        assertThat(hint).isAfter(base).isBeforeOrEqualTo(base.plus(Duration.ofDays(1)));
        assertThat(LocalTime.ofInstant(hint, ZoneOffset.UTC)).isEqualTo(LocalTime.of(hour, minute));
    }

    @Property
    void unzonedWallClocksAreNeverHints(@ForAll("bases") Instant base, @ForAll @IntRange(min = 1, max = 12) int hour,
            @ForAll @IntRange(min = 0, max = 59) int minute, @ForAll boolean pm) {
        String text = String.format("resets at %d:%02d %s.", hour, minute, pm ? "PM" : "AM");

        assertThat(TextHints.parse(text, base)).isEmpty();
    }

    @Property
    void clientBackoffIsNeverAHint(@ForAll("bases") Instant base, @ForAll @IntRange(min = 1, max = 600) int seconds,
            @ForAll @IntRange(min = 1, max = 9) int attempt) {
        assertThat(TextHints.parse("Retrying in " + seconds + "s…", base)).isEmpty();
        assertThat(TextHints.parse("retrying in " + seconds + " seconds (attempt " + attempt + "/10)", base)).isEmpty();
    }

    @Property(tries = 1000)
    void noParserThrowsOnArbitraryText(@ForAll @StringLength(max = 200) String text, @ForAll("bases") Instant base) {
        for (HintExtractor extractor : HintExtractor.values()) {
            extractor.extract(text, base).ifPresent(hint -> assertThat(hint).isAfter(EARLIEST.minus(Duration.ofDays(20_000))));
        }
    }

    @Property(tries = 1000)
    void noParserThrowsOnHintLikeText(@ForAll("hintLike") String text, @ForAll("bases") Instant base) {
        for (HintExtractor extractor : HintExtractor.values()) {
            extractor.extract(text, base).ifPresent(hint -> HintValidator.validate(hint, base));
        }
    }

    @Property(tries = 10)
    void hundredKilobyteAdversarialTextFinishesForEveryParser(@ForAll("adversarial") String text) {
        Instant base = Instant.parse("2026-06-01T12:00:00Z");
        // Generous bound, far above the milliseconds this takes: catastrophic backtracking on
        // 100 KB would take hours, so a slow shared machine cannot fail this.
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (HintExtractor extractor : HintExtractor.values()) {
                extractor.extract(text, base);
            }
        });
        assertThat(text).hasSizeGreaterThanOrEqualTo(65_000);
    }

    @Property
    void validatedHintsLieStrictlyAfterTheTerminalFrameAndWithinTheHorizon(@ForAll("bases") Instant terminalAt,
            @ForAll @LongRange(min = -1_000_000, max = 1_000_000) long offsetSeconds,
            @ForAll @LongRange(min = 0, max = 800_000) long horizonSeconds) {
        Instant hint = terminalAt.plusSeconds(offsetSeconds);
        Duration horizon = Duration.ofSeconds(horizonSeconds);

        boolean kept = HintValidator.validate(hint, terminalAt, horizon).isPresent();

        assertThat(kept).isEqualTo(offsetSeconds > 0 && offsetSeconds <= horizonSeconds);
    }

    @Provide
    Arbitrary<String> prose() {
        return Arbitraries.strings().withChars("abc XYZ.:-_").ofMaxLength(60);
    }

    @Provide
    Arbitrary<String> triggers() {
        return Arbitraries.of("Resets in", "resets in", "reset in", "Try again in", "try again after", "Please retry in",
                "retry after");
    }

    @Provide
    Arbitrary<String[]> spellings() {
        Arbitrary<String> h = Arbitraries.of("h", "hr", "hrs", " hours", " hour", "hour");
        Arbitrary<String> m = Arbitraries.of("m", "min", "mins", " minutes", " minute");
        Arbitrary<String> s = Arbitraries.of("s", "sec", "secs", " seconds", " second");
        return Combinators.combine(h, m, s).as((a, b, c) -> new String[] {a, b, c});
    }

    @Provide
    Arbitrary<String> hintLike() {
        Arbitrary<String> fragment = Arbitraries.of("resets in ", "try again in ", "retry after ", "Retry-After: ",
                "retry-after-ms=", "reset_time: ", "resets at ", "|", "1767225600", "17672256000000", "99999999999999999",
                "4hr ", "19min", "25.46s", "1m30s", "ms", " and ", ",", "9:10pm", "21:10", "99:99", "UTC", "(UTC)",
                "(America/New_York)", "(Nowhere/Land)", "+02:00", "+99:99", "GMT-14", "Z", "{", "}", "\"resets_at\":",
                "\"retryDelay\":\"", "\"resets_in_seconds\":", "[", "]", "\"", "-", ".", "0", "9", " ", "attempt",
                "Retrying in ", "2026-06-01T12:00:00Z", "9999-99-99T99:99:99Z", "Mon, 01 Jun 2026 12:05:00 GMT");
        return fragment.list().ofMaxSize(20).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> adversarial() {
        Arbitrary<String> unit = Arbitraries.of("1", "1.", "resets in 1", "try again in 1h ", "1h1m", "|1", "{\"a\":",
                "[", "{\"resets_at\":[", "resets at 1:1", "reset_time: 1", "9:10pm (", "a/", "1 and ", ", ",
                "retry-after: 1", "\"", "\\");
        return Combinators.combine(unit, Arbitraries.of(100_000, 65_537))
                .as((u, size) -> u.repeat(size / u.length() + 1).substring(0, size));
    }
}
