package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AbsoluteHintsTest {

    @Test
    void anthropicResetHeadersAreRfc3339Instants() {
        assertThat(Rfc3339.parse("2026-06-01T12:00:37Z")).contains(Instant.parse("2026-06-01T12:00:37Z"));
    }

    @Test
    void rfc3339OffsetsAndFractionsAreHonoured() {
        assertThat(Rfc3339.parse("2026-06-01 14:00:37.25+02:00")).contains(Instant.parse("2026-06-01T12:00:37.250Z"));
    }

    @Test
    void rfc3339WithoutAnOffsetIsEmpty() {
        assertThat(Rfc3339.parse("2026-06-01T12:00:37")).isEmpty();
    }

    @Test
    void epochSecondsAndMillisecondsAreTellApartByLength() {
        assertThat(EpochInstant.parse("1780326300")).contains(Instant.parse("2026-06-01T15:05:00Z"));
        assertThat(EpochInstant.parse("1752624000000")).contains(Instant.ofEpochMilli(1_752_624_000_000L));
    }

    @Test
    void shortOrNonNumericEpochsAreEmpty() {
        assertThat(EpochInstant.parse("12345")).isEmpty();
        assertThat(EpochInstant.parse("17803263x0")).isEmpty();
    }

    @Test
    void claudesPipeSuffixIsEpochSeconds() {
        assertThat(ClaudeEpochSuffix.parse("Claude AI usage limit reached|1767225600"))
                .contains(Instant.ofEpochSecond(1_767_225_600L));
    }

    @Test
    void textWithoutAPipeSuffixHasNoClaudeHint() {
        assertThat(ClaudeEpochSuffix.parse("Claude AI usage limit reached")).isEmpty();
    }
}
