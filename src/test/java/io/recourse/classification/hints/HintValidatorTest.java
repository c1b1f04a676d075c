package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HintValidatorTest {

    private static final Instant TERMINAL = Instant.parse("2026-06-01T12:01:20Z");

    @Test
    void aHintAfterTheTerminalFrameWithinTheHorizonIsKept() {
        Instant hint = TERMINAL.plusSeconds(30);

        assertThat(HintValidator.validate(hint, TERMINAL)).contains(hint);
    }

    @Test
    void aHintAtOrBeforeTheTerminalFrameIsDropped() {
        assertThat(HintValidator.validate(TERMINAL, TERMINAL)).isEmpty();
        assertThat(HintValidator.validate(TERMINAL.minusSeconds(1), TERMINAL)).isEmpty();
    }

    @Test
    void aHintBeyondTheDefaultSevenDayHorizonIsDropped() {
        assertThat(HintValidator.validate(TERMINAL.plus(Duration.ofDays(7)), TERMINAL)).isPresent();
        assertThat(HintValidator.validate(TERMINAL.plus(Duration.ofDays(7)).plusMillis(1), TERMINAL)).isEmpty();
    }

    @Test
    void aCustomHorizonIsHonoured() {
        assertThat(HintValidator.validate(TERMINAL.plusSeconds(61), TERMINAL, Duration.ofSeconds(60))).isEmpty();
    }

    @Test
    void aMissingHintIsEmpty() {
        assertThat(HintValidator.validate(null, TERMINAL)).isEmpty();
    }

    @Test
    void aNegativeHorizonIsRejected() {
        assertThatThrownBy(() -> HintValidator.validate(TERMINAL, TERMINAL, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("horizon");
    }
}
