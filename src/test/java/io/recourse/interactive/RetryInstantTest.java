package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code retry_at} counts from the failing turn's record time, and a {@code retry_after} hint is a
 * delay on the clock it was resolved against (DESIGN §6.2, §8): neither the processing lag nor a
 * skewed gateway clock moves the instant. Jitter fixed at the midpoint (attempt 1 = 5 s).
 */
public class RetryInstantTest {

    private static final Instant RECORDED = Instant.parse("2026-11-30T08:00:00Z");
    private final InteractiveRecoveryPolicy policy = new InteractiveRecoveryPolicy(InteractiveConfig.defaults(),
            JitterSource.fixed(0.5));

    private Instant retryAt(TurnOutcome outcome, Instant now) {
        TurnContext ctx = outcome.context();
        SessionState s = policy.apply(null, Turns.started(ctx, outcome.recordedAt()), outcome.recordedAt()).state();
        RecoveryState shown = policy.apply(s, InteractiveInput.of(outcome), now, outcome.recordedAt()).recoveryState();
        assertThat(shown.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        return shown.retryAt();
    }

    @Test
    public void theProcessingLagDoesNotMoveRetryAt() {
        TurnOutcome failed = Turns.failed(Turns.user("s", 1), Code.PROVIDER_OVERLOADED, RECORDED);

        assertThat(retryAt(failed, RECORDED)).isEqualTo(RECORDED.plusSeconds(5));
        assertThat(retryAt(failed, RECORDED.plusSeconds(90))).isEqualTo(RECORDED.plusSeconds(5));
    }

    @ParameterizedTest
    @ValueSource(ints = {-180, -30, 0, 30, 180})
    public void aSkewedGatewayClockNeitherStretchesNorCancelsAHint(int gatewaySkewSeconds) {
        Instant gatewayNow = RECORDED.plusSeconds(gatewaySkewSeconds);
        TurnOutcome throttled = new TurnOutcome(Turns.user("s", 1), Outcome.FAILED, false, "end_turn", false, false, true,
                Turns.classification(Code.RATE_LIMITED, Confidence.HIGH, gatewayNow.plusSeconds(30)), gatewayNow, RECORDED);

        assertThat(retryAt(throttled, RECORDED.plusSeconds(2)))
                .as("retry-after: 30 s, the gateway's clock %+d s off", gatewaySkewSeconds)
                .isEqualTo(RECORDED.plus(Duration.ofSeconds(30)));
    }
}
