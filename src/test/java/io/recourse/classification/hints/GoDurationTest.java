package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GoDurationTest {

    @Test
    void secondsMinutesHoursAndMillisecondsParse() {
        assertThat(GoDuration.parse("1s")).contains(Duration.ofSeconds(1));
        assertThat(GoDuration.parse("6m0s")).contains(Duration.ofMinutes(6));
        assertThat(GoDuration.parse("1h2m3.5s")).contains(Duration.ofMillis(3_723_500));
        assertThat(GoDuration.parse("250ms")).contains(Duration.ofMillis(250));
        assertThat(GoDuration.parse("2.8s")).contains(Duration.ofMillis(2_800));
        assertThat(GoDuration.parse("0")).contains(Duration.ZERO);
    }

    @Test
    void negativeUnitlessOrUnknownUnitsAreEmpty() {
        assertThat(GoDuration.parse("-1s")).isEmpty();
        assertThat(GoDuration.parse("12")).isEmpty();
        assertThat(GoDuration.parse("3 s")).isEmpty();
        assertThat(GoDuration.parse("5y")).isEmpty();
        assertThat(GoDuration.parse("1..2s")).isEmpty();
    }

    @Test
    void digitsOtherThanAsciiAreEmpty() {
        assertThat(GoDuration.parse("\uFF13s")).isEmpty(); // fullwidth 3
        assertThat(GoDuration.parse("\u0663s")).isEmpty(); // Arabic-Indic 3
        assertThat(GoDuration.parse("1\u0663s")).isEmpty();
        assertThat(GoDuration.parse("3s\u0663m")).isEmpty();
        assertThat(GoDuration.parse("3s")).contains(Duration.ofSeconds(3));
    }

    @Test
    void hugeOrOverflowingDurationsAreEmpty() {
        assertThat(GoDuration.parse("9".repeat(60) + "h")).isEmpty();
        assertThat(GoDuration.parse("2562047h47m16.854775807s")).isEmpty(); // Go's largest duration: beyond the hint bound
        assertThat(GoDuration.parse("9999999h9999999h9999999h")).isEmpty();
        assertThat(GoDuration.parse("0." + "0".repeat(40) + "1s")).contains(Duration.ZERO); // rounds to 0 ns
        assertThat(GoDuration.resetAt("1h", Instant.MAX)).isEmpty();
    }

    @Test
    void theResetHeaderResolvesAgainstTheBase() {
        Instant base = Instant.parse("2026-06-01T12:00:00.500Z");

        assertThat(GoDuration.resetAt("360ms", base)).contains(Instant.parse("2026-06-01T12:00:00.860Z"));
    }
}
