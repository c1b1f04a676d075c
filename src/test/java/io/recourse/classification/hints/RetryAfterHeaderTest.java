package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterHeaderTest {

    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00.600Z");

    @Test
    void deltaSecondsAreRelativeToTheBase() {
        assertThat(RetryAfterHeader.parse("37", BASE)).contains(Instant.parse("2026-06-01T12:00:37.600Z"));
    }

    @Test
    void decimalDeltaSecondsKeepTheFraction() {
        assertThat(RetryAfterHeader.parse(" 2.5 ", BASE)).contains(Instant.parse("2026-06-01T12:00:03.100Z"));
    }

    @Test
    void anHttpDateIsAbsolute() {
        assertThat(RetryAfterHeader.parse("Mon, 01 Jun 2026 12:05:00 GMT", BASE))
                .contains(Instant.parse("2026-06-01T12:05:00Z"));
    }

    @Test
    void negativeOrNonNumericValuesAreEmpty() {
        assertThat(RetryAfterHeader.parse("-5", BASE)).isEmpty();
        assertThat(RetryAfterHeader.parse("soon", BASE)).isEmpty();
        assertThat(RetryAfterHeader.parse("", BASE)).isEmpty();
        assertThat(RetryAfterHeader.parse(null, BASE)).isEmpty();
    }

    @Test
    void retryAfterMsIsInMilliseconds() {
        assertThat(RetryAfterHeader.parseMillis("2500", BASE)).contains(Instant.parse("2026-06-01T12:00:03.100Z"));
    }

    @Test
    void retryAfterMsRejectsUnits() {
        assertThat(RetryAfterHeader.parseMillis("2500ms", BASE)).isEmpty();
    }
}
