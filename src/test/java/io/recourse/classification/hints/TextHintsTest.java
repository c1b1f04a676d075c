package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TextHintsTest {

    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");

    @Test
    void resetsInHoursAndMinutes() {
        assertThat(TextHints.parse("AI_APICallError: 5-hour usage limit reached. Resets in 4hr 19min.", BASE))
                .contains(Instant.parse("2026-06-01T16:19:00Z"));
    }

    @Test
    void resetInWordyHours() {
        assertThat(TextHints.parse("quota will reset in 2 hours", BASE)).contains(Instant.parse("2026-06-01T14:00:00Z"));
    }

    @Test
    void tryAgainInSeconds() {
        assertThat(TextHints.parse("try again in 20s", BASE)).contains(Instant.parse("2026-06-01T12:00:20Z"));
    }

    @Test
    void tryAgainInCompactMinutesAndSeconds() {
        assertThat(TextHints.parse("try again in 1m30s", BASE)).contains(Instant.parse("2026-06-01T12:01:30Z"));
    }

    @Test
    void pleaseRetryInDecimalSeconds() {
        assertThat(TextHints.parse("Please retry in 25.46s.", BASE)).contains(Instant.parse("2026-06-01T12:00:25.460Z"));
    }

    @Test
    void retryAfterSpelledOutSeconds() {
        assertThat(TextHints.parse("retry after 30 seconds", BASE)).contains(Instant.parse("2026-06-01T12:00:30Z"));
    }

    @Test
    void aRetryAfterHeaderWrittenInALineIsSeconds() {
        assertThat(TextHints.parse("429 Too Many Requests, Retry-After: 3600", BASE))
                .contains(Instant.parse("2026-06-01T13:00:00Z"));
    }

    @Test
    void aClientsOwnRetryingBackoffIsNotAHint() {
        assertThat(TextHints.parse("Retrying in 5s…", BASE)).isEmpty();
        assertThat(TextHints.parse("stream error, retrying in 4 seconds (attempt 2/10)", BASE)).isEmpty();
        assertThat(TextHints.parse("will retry in 3s", BASE)).isEmpty();
    }

    @Test
    void aTriggerFollowedByAnAttemptCounterIsNotAHint() {
        assertThat(TextHints.parse("retry in 4 seconds (attempt 2/10)", BASE)).isEmpty();
    }

    @Test
    void aUtcWallClockResolvesToItsNextOccurrence() {
        assertThat(TextHints.parse("resets 9:10pm (UTC)", BASE)).contains(Instant.parse("2026-06-01T21:10:00Z"));
        assertThat(TextHints.parse("resets at 21:10 UTC", BASE)).contains(Instant.parse("2026-06-01T21:10:00Z"));
    }

    @Test
    void aWallClockAlreadyPastTodayResolvesToTomorrow() {
        assertThat(TextHints.parse("rate_limit_error: resets at 4:00 AM UTC", BASE))
                .contains(Instant.parse("2026-06-02T04:00:00Z"));
    }

    @Test
    void aRegionZoneInParenthesesIsHonoured() {
        // 21:10 in New York on 1 June 2026 (EDT, UTC-4) is 01:10 UTC on 2 June.
        assertThat(TextHints.parse("resets 9:10pm (America/New_York)", BASE))
                .contains(Instant.parse("2026-06-02T01:10:00Z"));
    }

    @Test
    void anOffsetZoneIsHonoured() {
        assertThat(TextHints.parse("resets at 14:30 +02:00", BASE)).contains(Instant.parse("2026-06-01T12:30:00Z"));
    }

    @Test
    void aWallClockWithoutAZoneIsNotAHint() {
        assertThat(TextHints.parse("rate limit resets at 4:00 AM", BASE)).isEmpty();
        assertThat(TextHints.parse("resets at 04:30", BASE)).isEmpty();
        assertThat(TextHints.parse("try again at 3:05 PM.", BASE)).isEmpty();
        assertThat(TextHints.parse("Try again at Sep 3rd, 2026 9:15 AM.", BASE)).isEmpty();
    }

    @Test
    void anUnknownRegionIsNotAHint() {
        assertThat(TextHints.parse("resets 9:10pm (Mars/Olympus_Mons)", BASE)).isEmpty();
    }

    @Test
    void anEpochResetFieldInALineIsAbsolute() {
        assertThat(TextHints.parse("rate limit exceeded reset_time: 1752624000", BASE))
                .contains(Instant.ofEpochSecond(1_752_624_000L));
        assertThat(TextHints.parse("rate limit exceeded reset_time: 1752624000000", BASE))
                .contains(Instant.ofEpochSecond(1_752_624_000L));
    }

    @Test
    void claudesPipeSuffixIsFoundInText() {
        assertThat(TextHints.parse("Claude AI usage limit reached|1780326000", BASE))
                .contains(Instant.parse("2026-06-01T15:00:00Z"));
    }

    @Test
    void vagueTimingIsNotAHint() {
        assertThat(TextHints.parse("Please try again later.", BASE)).isEmpty();
        assertThat(TextHints.parse("try again in a moment", BASE)).isEmpty();
    }

    @Test
    void aWallClockAfterTheEndOfTheTimeLineIsNoHint() {
        for (Instant base : new Instant[] {Instant.MAX, Instant.MIN, Instant.MAX.minusSeconds(3600)}) {
            assertThat(TextHints.wallClock("resets 9:10pm (UTC)", base)).as("%s", base).isEmpty();
            assertThat(TextHints.parse("try again at 21:10 +14:00", base)).as("%s", base).isEmpty();
        }
        assertThat(TextHints.wallClock("resets 9:10pm (UTC)", Instant.parse("9999-12-31T23:00:00Z")))
                .isEqualTo(Optional.of(Instant.parse("+10000-01-01T21:10:00Z")));
    }

    /** Every parser at the ends of the time-line, on hostile numbers: empty or a value, never an exception. */
    @Test
    void noParserThrowsForAnyBaseOrHostileNumber() {
        String huge = "9".repeat(70);
        String[] texts = {"resets 9:10pm (UTC)", "resets at 23:59 -18:00", "retry after 999999999 days", "retry-after: 999999999",
                "retry-after-ms: 999999999.999999999", "resets in " + huge + "s", "try again in 1e400 seconds", "|99999999999999",
                "reset_time: 99999999999", "resets_at=-1e400", "999999999999.999999999", "9999h9999h9999h", "1e400", "-1e400", "1e-400",
                huge, "Fri, 31 Dec 9999 23:59:59 GMT", "+999999999-12-31T23:59:59Z", "9999-12-31T23:59:59-18:00",
                "0000-01-01T00:00:00+18:00", "{\"resets_in_seconds\":1e400,\"retryDelay\":\"" + huge + "h\",\"resets_at\":" + huge + "}"};
        for (Instant base : new Instant[] {Instant.MAX, Instant.MIN, Instant.EPOCH, BASE}) {
            for (HintExtractor extractor : HintExtractor.values()) {
                for (String text : texts) {
                    assertThat(extractor.extract(text, base)).as("%s %s at %s", extractor, text, base).isNotNull();
                }
            }
        }
    }
}
