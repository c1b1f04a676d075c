package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The start settle (DESIGN §6.3): a due RETRY entry waits until the task has been RUNNING for the
 * settle, and fires from that instant on; an entry not yet due waits for its own due time.
 */
public class StartSettleTest {

    private static final Instant RUNNING = Instant.parse("2026-12-02T08:00:00Z");
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Instant SETTLED = RUNNING.plus(SETTLE);

    @Test
    public void aDueRetryWaitsForTheEndOfTheSettle() {
        Instant due = RUNNING.minusSeconds(30); // overdue after a restart

        assertThat(StartSettle.retry(RUNNING, RUNNING, SETTLE, due)).isEqualTo(new StartSettle.Verdict(SETTLED));
        assertThat(StartSettle.retry(SETTLED.minusMillis(1), RUNNING, SETTLE, due).waitUntil()).isEqualTo(SETTLED);
        assertThat(StartSettle.retry(SETTLED.minusMillis(1), RUNNING, SETTLE, due).fire()).isFalse();
    }

    @Test
    public void itFiresExactlyAtTheEndOfTheSettleAndAfter() {
        Instant due = RUNNING.minusSeconds(30);

        assertThat(StartSettle.retry(SETTLED, RUNNING, SETTLE, due)).isEqualTo(StartSettle.Verdict.FIRE);
        assertThat(StartSettle.retry(SETTLED.plusMillis(1), RUNNING, SETTLE, due).fire()).isTrue();
        assertThat(StartSettle.retry(SETTLED.plusSeconds(3600), RUNNING, SETTLE, due).fire()).isTrue();
    }

    @Test
    public void anEntryDueDuringTheSettleWaitsForTheSettleAndOneDueAfterItForItsDueTime() {
        Instant duringSettle = RUNNING.plusMillis(500);
        Instant afterSettle = SETTLED.plusSeconds(5);

        assertThat(StartSettle.retry(duringSettle, RUNNING, SETTLE, duringSettle).waitUntil()).isEqualTo(SETTLED);
        assertThat(StartSettle.retry(SETTLED, RUNNING, SETTLE, afterSettle).waitUntil()).isEqualTo(afterSettle);
        assertThat(StartSettle.retry(afterSettle.minusMillis(1), RUNNING, SETTLE, afterSettle).fire()).isFalse();
        assertThat(StartSettle.retry(afterSettle, RUNNING, SETTLE, afterSettle).fire()).isTrue();
    }

    @Test
    public void aZeroSettleHoldsNothingThatIsDue() {
        assertThat(StartSettle.retry(RUNNING, RUNNING, Duration.ZERO, RUNNING).fire()).isTrue();
        assertThat(StartSettle.retry(RUNNING, RUNNING, Duration.ZERO, RUNNING.minusSeconds(1)).fire()).isTrue();
        assertThat(StartSettle.retry(RUNNING, RUNNING, Duration.ZERO, RUNNING.plusMillis(1)).waitUntil())
                .isEqualTo(RUNNING.plusMillis(1));
    }

    @Test
    public void aNegativeSettleOrAMissingInstantIsRejected() {
        assertThatThrownBy(() -> StartSettle.retry(RUNNING, RUNNING, Duration.ofMillis(-1), RUNNING))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StartSettle.retry(RUNNING, null, SETTLE, RUNNING)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> StartSettle.retry(RUNNING, RUNNING, SETTLE, null)).isInstanceOf(NullPointerException.class);
    }
}
