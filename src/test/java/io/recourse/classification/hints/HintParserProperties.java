package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Properties of every timing-hint parser (DESIGN §5.2): round trips, totality, bounded time. */
class HintParserProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x5A41_7153_0002L;

    private static final int DEFAULT_EXAMPLES = 1000;

    /** Share of generated numbers drawn from the range's edges (min, max, 0 when in range). */
    private static final int EDGE_PERCENT = 10;

    private static final Instant EARLIEST = Instant.parse("2001-09-09T01:46:40Z");

    private static final long MIN_EPOCH_SECONDS = 1_000_000_000L;
    private static final long MAX_EPOCH_SECONDS = 4_000_000_000L;

    @Test
    void retryAfterDeltaSecondsRoundTrip() {
        theory().forAll(bases(), ints(0, 10_000_000), ints(0, 999)).checkAssert((base, seconds, millis) -> {
            String value = millis == 0 ? Integer.toString(seconds) : String.format("%d.%03d", seconds, millis);

            assertThat(RetryAfterHeader.parse(value, base)).contains(base.plusSeconds(seconds).plusMillis(millis));
        });
    }

    @Test
    void retryAfterHttpDatesRoundTrip() {
        theory().forAll(bases(), epochSeconds()).checkAssert((base, epochSeconds) -> {
            Instant instant = Instant.ofEpochSecond(epochSeconds);
            String value = DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));

            assertThat(RetryAfterHeader.parse(value, base)).contains(instant);
        });
    }

    @Test
    void retryAfterMsRoundTrips() {
        theory().forAll(bases(), longsIn(0, 100_000_000_000L)).checkAssert((base, ms) ->
                assertThat(RetryAfterHeader.parseMillis(Long.toString(ms), base)).contains(base.plusMillis(ms)));
    }

    @Test
    void goDurationsRoundTrip() {
        theory().forAll(ints(0, 200), ints(0, 59), ints(0, 59), ints(0, 999)).checkAssert((hours, minutes, seconds, millis) -> {
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
        });
    }

    @Test
    void goMillisecondDurationsRoundTrip() {
        theory().forAll(bases(), ints(0, 100_000)).checkAssert((base, ms) ->
                assertThat(GoDuration.resetAt(ms + "ms", base)).contains(base.plusMillis(ms)));
    }

    @Test
    void rfc3339InstantsRoundTrip() {
        theory().forAll(epochSeconds(), ints(0, 999), ints(-12 * 4, 14 * 4)).checkAssert((epochSeconds, millis, quarterHours) -> {
            Instant instant = Instant.ofEpochSecond(epochSeconds).plusMillis(millis);
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(quarterHours * 15 * 60);
            String value = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(offset));

            assertThat(Rfc3339.parse(value)).contains(instant);
        });
    }

    @Test
    void epochSecondsAndMillisecondsRoundTrip() {
        theory().forAll(epochSeconds(), ints(0, 999)).checkAssert((seconds, millis) -> {
            assertThat(EpochInstant.parse(Long.toString(seconds))).contains(Instant.ofEpochSecond(seconds));
            long epochMillis = seconds * 1000 + millis;
            assertThat(EpochInstant.parse(Long.toString(epochMillis))).contains(Instant.ofEpochMilli(epochMillis));
        });
    }

    @Test
    void claudeSuffixRoundTrips() {
        theory().forAll(epochSeconds(), prose()).checkAssert((seconds, prefix) ->
                assertThat(ClaudeEpochSuffix.parse(prefix + "|" + seconds)).contains(Instant.ofEpochSecond(seconds)));
    }

    @Test
    void nestedBodyFieldsRoundTrip() {
        theory().forAll(bases(), bodyFields(), ints(0, 6)).checkAssert((base, fields, depth) -> {
            String open = "{\"a\":[".repeat(depth);
            String close = "]}".repeat(depth);
            String delay = String.format("%d.%02ds", fields.delayCentis() / 100, fields.delayCentis() % 100);

            assertThat(JsonBodyHints.resetsAt(open + "{\"resets_at\":" + fields.resetsAt() + "}" + close))
                    .contains(Instant.ofEpochSecond(fields.resetsAt()));
            assertThat(JsonBodyHints.resetsInSeconds(open + "{\"resets_in_seconds\":" + fields.resetsIn() + "}" + close, base))
                    .contains(base.plusSeconds(fields.resetsIn()));
            assertThat(JsonBodyHints.retryDelay(open + "{\"retryDelay\":\"" + delay + "\"}" + close, base))
                    .contains(base.plusMillis(fields.delayCentis() * 10L));
        });
    }

    @Test
    void relativeProseRoundTrips() {
        theory().forAll(bases(), clocks(), triggers(), spellings()).checkAssert((base, clock, trigger, units) -> {
            String text = "Error: limit reached. " + trigger + " " + clock.hours() + units.get(0) + " " + clock.minutes()
                    + units.get(1) + " " + clock.seconds() + units.get(2) + ". Thanks";

            assertThat(TextHints.parse(text, base)).contains(base.plus(
                    Duration.ofHours(clock.hours()).plusMinutes(clock.minutes()).plusSeconds(clock.seconds())));
        });
    }

    @Test
    void utcWallClocksResolveToTheNextOccurrence() {
        theory().forAll(bases(), ints(0, 23), ints(0, 59)).checkAssert((base, hour, minute) -> {
            String text = String.format("rate limit resets at %02d:%02d UTC", hour, minute);

            Instant hint = TextHints.parse(text, base).orElseThrow();

            assertThat(hint).isAfter(base).isBeforeOrEqualTo(base.plus(Duration.ofDays(1)));
            assertThat(LocalTime.ofInstant(hint, ZoneOffset.UTC)).isEqualTo(LocalTime.of(hour, minute));
        });
    }

    @Test
    void unzonedWallClocksAreNeverHints() {
        theory().forAll(bases(), ints(1, 12), ints(0, 59), booleans().all()).checkAssert((base, hour, minute, pm) -> {
            String text = String.format("resets at %d:%02d %s.", hour, minute, pm ? "PM" : "AM");

            assertThat(TextHints.parse(text, base)).isEmpty();
        });
    }

    @Test
    void clientBackoffIsNeverAHint() {
        theory().forAll(bases(), ints(1, 600), ints(1, 9)).checkAssert((base, seconds, attempt) -> {
            assertThat(TextHints.parse("Retrying in " + seconds + "s…", base)).isEmpty();
            assertThat(TextHints.parse("retrying in " + seconds + " seconds (attempt " + attempt + "/10)", base)).isEmpty();
        });
    }

    @Test
    void noParserThrowsOnArbitraryText() {
        theory(1000).forAll(strings().allPossible().ofLengthBetween(0, 200), bases()).checkAssert((text, base) -> {
            for (HintExtractor extractor : HintExtractor.values()) {
                extractor.extract(text, base).ifPresent(hint -> assertThat(hint).isAfter(EARLIEST.minus(Duration.ofDays(20_000))));
            }
        });
    }

    @Test
    void noParserThrowsOnHintLikeText() {
        theory(1000).forAll(hintLike(), bases()).checkAssert((text, base) -> {
            for (HintExtractor extractor : HintExtractor.values()) {
                extractor.extract(text, base).ifPresent(hint -> HintValidator.validate(hint, base));
            }
        });
    }

    @Test
    void hundredKilobyteAdversarialTextFinishesForEveryParser() {
        Instant base = Instant.parse("2026-06-01T12:00:00Z");
        theory(10).forAll(adversarial()).checkAssert(text -> {
            // Generous bound, far above the milliseconds this takes: catastrophic backtracking on
            // 100 KB would take hours, so a slow shared machine cannot fail this.
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                for (HintExtractor extractor : HintExtractor.values()) {
                    extractor.extract(text, base);
                }
            });
            assertThat(text).hasSizeGreaterThanOrEqualTo(65_000);
        });
    }

    @Test
    void validatedHintsLieStrictlyAfterTheTerminalFrameAndWithinTheHorizon() {
        theory().forAll(bases(), longsIn(-1_000_000, 1_000_000), longsIn(0, 800_000))
                .checkAssert((terminalAt, offsetSeconds, horizonSeconds) -> {
                    Instant hint = terminalAt.plusSeconds(offsetSeconds);
                    Duration horizon = Duration.ofSeconds(horizonSeconds);

                    boolean kept = HintValidator.validate(hint, terminalAt, horizon).isPresent();

                    assertThat(kept).isEqualTo(offsetSeconds > 0 && offsetSeconds <= horizonSeconds);
                });
    }

    private static QuickTheory theory() {
        return theory(DEFAULT_EXAMPLES);
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    /** Integers in {@code [min, max]}, with the edges (min, max, 0 when in range) drawn more often. */
    private static Gen<Integer> ints(int min, int max) {
        List<Integer> edges = min <= 0 && 0 <= max ? List.of(min, 0, max) : List.of(min, max);
        return integers().between(min, max).mix(Generate.pick(edges), EDGE_PERCENT);
    }

    /** Longs in {@code [min, max]}, with the edges (min, max, 0 when in range) drawn more often. */
    private static Gen<Long> longsIn(long min, long max) {
        List<Long> edges = min <= 0 && 0 <= max ? List.of(min, 0L, max) : List.of(min, max);
        return longs().between(min, max).mix(Generate.pick(edges), EDGE_PERCENT);
    }

    private static Gen<Long> epochSeconds() {
        return longsIn(MIN_EPOCH_SECONDS, MAX_EPOCH_SECONDS);
    }

    /** Terminal-frame instants between 2001 and 2096, with a millisecond part. */
    private static Gen<Instant> bases() {
        return epochSeconds().zip(ints(0, 999), (s, ms) -> Instant.ofEpochSecond(s).plusMillis(ms));
    }

    private record BodyFields(long resetsAt, int resetsIn, int delayCentis) {}

    private static Gen<BodyFields> bodyFields() {
        return epochSeconds().zip(ints(0, 1_000_000), ints(0, 99_999), BodyFields::new);
    }

    private record Clock(int hours, int minutes, int seconds) {}

    private static Gen<Clock> clocks() {
        return ints(0, 99).zip(ints(0, 59), ints(1, 59), Clock::new);
    }

    private static Gen<String> prose() {
        return stringsOf("abc XYZ.:-_", 60);
    }

    private static Gen<String> triggers() {
        return Generate.pick(List.of("Resets in", "resets in", "reset in", "Try again in", "try again after",
                "Please retry in", "retry after"));
    }

    /** Unit spellings for hours, minutes and seconds, in that order. */
    private static Gen<List<String>> spellings() {
        Gen<String> h = Generate.pick(List.of("h", "hr", "hrs", " hours", " hour", "hour"));
        Gen<String> m = Generate.pick(List.of("m", "min", "mins", " minutes", " minute"));
        Gen<String> s = Generate.pick(List.of("s", "sec", "secs", " seconds", " second"));
        return h.zip(m, s, List::of);
    }

    private static Gen<String> hintLike() {
        Gen<String> fragment = Generate.pick(List.of("resets in ", "try again in ", "retry after ", "Retry-After: ",
                "retry-after-ms=", "reset_time: ", "resets at ", "|", "1767225600", "17672256000000", "99999999999999999",
                "4hr ", "19min", "25.46s", "1m30s", "ms", " and ", ",", "9:10pm", "21:10", "99:99", "UTC", "(UTC)",
                "(America/New_York)", "(Nowhere/Land)", "+02:00", "+99:99", "GMT-14", "Z", "{", "}", "\"resets_at\":",
                "\"retryDelay\":\"", "\"resets_in_seconds\":", "[", "]", "\"", "-", ".", "0", "9", " ", "attempt",
                "Retrying in ", "2026-06-01T12:00:00Z", "9999-99-99T99:99:99Z", "Mon, 01 Jun 2026 12:05:00 GMT"));
        return lists().of(fragment).ofSizeBetween(0, 20).map(parts -> String.join("", parts));
    }

    /** One unit repeated to exactly 100 000 or 65 537 characters. */
    private static Gen<String> adversarial() {
        Gen<String> unit = Generate.pick(List.of("1", "1.", "resets in 1", "try again in 1h ", "1h1m", "|1", "{\"a\":",
                "[", "{\"resets_at\":[", "resets at 1:1", "reset_time: 1", "9:10pm (", "a/", "1 and ", ", ",
                "retry-after: 1", "\"", "\\"));
        return unit.zip(Generate.pick(List.of(100_000, 65_537)),
                (u, size) -> u.repeat(size / u.length() + 1).substring(0, size))
                .describedAs(text -> "\"" + text.substring(0, 40) + "…\" (" + text.length() + " chars)");
    }

    /** Strings of up to {@code maxLength} characters drawn from {@code alphabet}. */
    private static Gen<String> stringsOf(String alphabet, int maxLength) {
        return lists().of(Generate.pick(alphabet.chars().mapToObj(c -> (char) c).toList()))
                .ofSizeBetween(0, maxLength)
                .map(chars -> chars.stream().map(String::valueOf).collect(Collectors.joining()));
    }
}
