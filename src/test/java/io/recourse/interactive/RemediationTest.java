package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.TurnContext;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Remediation;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Scope;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kanban shows the quota reset and what the user can do (DESIGN §6.5): every hard code has a
 * remediation, {@code quota_limited} carries the validated reset, every other code shows neither.
 */
public class RemediationTest {

    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    private static final Instant RESET = T0.plusSeconds(3 * 3600);
    private static final Map<Code, Remediation> HARD = Map.of(
            Code.QUOTA_LIMITED, Remediation.WAIT_FOR_RESET,
            Code.AUTH_REQUIRED, Remediation.RECONNECT,
            Code.MISSING_CREDENTIALS, Remediation.RECONNECT,
            Code.SUBSCRIPTION_REQUIRED, Remediation.CHANGE_PLAN,
            Code.MODEL_UNAVAILABLE, Remediation.CONFIGURE,
            Code.PROVIDER_NOT_CONFIGURED, Remediation.CONFIGURE);

    private final InteractiveRecoveryPolicy policy = InteractiveRecoveryPolicy.defaults();

    private RecoveryState shownAfterFailure(Code code, Instant resetAt) {
        TurnContext ctx = Turns.user("s", 1);
        SessionState s = policy.apply(null, Turns.started(ctx, T0), T0).state();
        Classification c = new Classification(code, Confidence.HIGH, "rule." + code.wire() + ".v1", "provider-errors.v1",
                Scope.PROVIDER, null, resetAt, false);
        return policy.apply(s, Turns.failed(ctx, c, true, false, T0), T0).recoveryState();
    }

    @ParameterizedTest
    @EnumSource(Code.class)
    public void everyHardCodeShowsItsRemediationAndNoOtherCodeShowsOne(Code code) {
        RecoveryState shown = shownAfterFailure(code, code == Code.QUOTA_LIMITED ? RESET : null);

        assertThat(Remediation.of(code)).isEqualTo(HARD.get(code));
        assertThat(shown.code()).isEqualTo(code);
        assertThat(shown.remediation()).isEqualTo(HARD.get(code));
        assertThat(HARD.containsKey(code)).isEqualTo(code.errorClass() == ErrorClass.HARD);
    }

    @Test
    public void aQuotaLimitShowsTheValidatedResetAndWaitForReset() {
        RecoveryState shown = shownAfterFailure(Code.QUOTA_LIMITED, RESET);

        assertThat(shown.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(shown.reason()).isEqualTo(RecoveryReason.USER_ACTION_REQUIRED);
        assertThat(shown.resetAt()).isEqualTo(RESET);
        assertThat(shown.remediation()).isEqualTo(Remediation.WAIT_FOR_RESET);
        assertThat(shown.retryAt()).as("Recourse does not retry a quota limit itself").isNull();
    }

    @Test
    public void aQuotaLimitWithoutAResetStillSaysWaitForReset() {
        RecoveryState shown = shownAfterFailure(Code.QUOTA_LIMITED, null);

        assertThat(shown.resetAt()).isNull();
        assertThat(shown.remediation()).isEqualTo(Remediation.WAIT_FOR_RESET);
    }

    @Test
    public void aNewPromptClearsTheResetAndTheRemediation() {
        TurnContext ctx = Turns.user("s", 1);
        SessionState s = policy.apply(null, Turns.started(ctx, T0), T0).state();
        Classification c = new Classification(Code.QUOTA_LIMITED, Confidence.HIGH, "rule.q.v1", "provider-errors.v1",
                Scope.PROVIDER, null, RESET, false);
        s = policy.apply(s, Turns.failed(ctx, c, true, false, T0), T0).state();
        assertThat(s.resetAt()).isEqualTo(RESET);

        RecoveryDecision next = policy.apply(s, Turns.started(Turns.user("s", 2), T0.plusSeconds(60)), T0.plusSeconds(60));

        assertThat(next.state().resetAt()).isNull();
        assertThat(next.recoveryState().resetAt()).isNull();
        assertThat(next.recoveryState().remediation()).isNull();
    }
}
