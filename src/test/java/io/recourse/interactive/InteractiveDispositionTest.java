package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Handling;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exhaustive disposition table of the interactive owner (DESIGN §6.1, seed table "Kanban
 * interactive policy"): every code × replay-safe × confidence × hint × launch/post-start.
 */
public class InteractiveDispositionTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final String SESSION = "session/exhaustive";

    /**
     * The seed's Kanban column, written out per handling (independent of the policy's switch; each
     * code's handling is DESIGN §5.1's, checked by {@code CodeTest}).
     */
    public enum Kanban { SHORT_RETRY, SHORT_THROTTLE_ONLY, USER_ACTION, EXISTING_TERMINAL_RECOVERY, MANUAL_RECOVERY }

    private static final Map<Handling, Kanban> SEED_TABLE = Map.ofEntries(
            Map.entry(Handling.PROVIDER_TRANSIENT, Kanban.SHORT_RETRY),
            Map.entry(Handling.TRANSPORT_LOST, Kanban.SHORT_RETRY),
            Map.entry(Handling.THROTTLE, Kanban.SHORT_THROTTLE_ONLY),
            Map.entry(Handling.RENEWABLE_QUOTA, Kanban.USER_ACTION),
            Map.entry(Handling.USER_ACTION, Kanban.USER_ACTION),
            Map.entry(Handling.NOT_PROVIDER_FAILURE, Kanban.EXISTING_TERMINAL_RECOVERY),
            Map.entry(Handling.UNCLASSIFIED_PRE_START, Kanban.MANUAL_RECOVERY),
            Map.entry(Handling.UNCLASSIFIED_POST_START, Kanban.MANUAL_RECOVERY));

    public enum Hint {
        NONE(null), WITHIN_60_S(45), BEYOND_60_S(61);

        final Integer seconds;

        Hint(Integer seconds) {
            this.seconds = seconds;
        }
    }

    @Test
    public void theSeedTableNamesEveryHandlingSoANewHandlingFailsThisTest() {
        assertThat(SEED_TABLE.keySet()).isEqualTo(EnumSet.allOf(Handling.class));
    }

    public static Stream<Arguments> everyCombination() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (Code code : Code.values()) {
            for (boolean replaySafe : new boolean[] {true, false}) {
                for (Confidence confidence : new Confidence[] {Confidence.HIGH, Confidence.MEDIUM, Confidence.LOW}) {
                    for (Hint hint : Hint.values()) {
                        for (boolean launch : new boolean[] {true, false}) {
                            all.add(Arguments.of(code, replaySafe, confidence, hint, launch));
                        }
                    }
                }
            }
        }
        return all.build();
    }

    public static Disposition expected(Code code, boolean replaySafe, Confidence confidence, Hint hint) {
        boolean gatesHold = confidence == Confidence.HIGH && replaySafe;
        return switch (SEED_TABLE.get(code.handling())) {
            case SHORT_RETRY -> gatesHold ? Disposition.AUTO_RETRY : Disposition.MANUAL;
            case SHORT_THROTTLE_ONLY -> gatesHold && hint == Hint.WITHIN_60_S ? Disposition.AUTO_RETRY : Disposition.MANUAL;
            case USER_ACTION, MANUAL_RECOVERY -> Disposition.MANUAL;
            case EXISTING_TERMINAL_RECOVERY -> Disposition.NONE;
        };
    }

    @ParameterizedTest(name = "{0} replay_safe={1} confidence={2} hint={3} launch={4}")
    @MethodSource("everyCombination")
    public void aFailedUserPromptGetsTheDispositionOfTheSeedTable(Code code, boolean replaySafe, Confidence confidence,
                                                           Hint hint, boolean launch) {
        // given: a user prompt on a concrete profile started and failed with this classification
        InteractiveRecoveryPolicy policy = new InteractiveRecoveryPolicy(InteractiveConfig.defaults(), JitterSource.fixed(0.5));
        TurnContext ctx = Turns.user(SESSION, 1);
        SessionState state = policy.apply(null, Turns.started(ctx, T0), T0).state();
        Instant failedAt = T0.plusSeconds(3);
        Instant retryAfter = hint.seconds == null ? null : failedAt.plusSeconds(hint.seconds);
        TurnOutcome outcome = Turns.failed(ctx, Turns.classification(code, confidence, retryAfter), replaySafe, launch, failedAt);

        // when
        RecoveryDecision decision = policy.apply(state, outcome, failedAt.plusMillis(20));

        // then
        Disposition expected = expected(code, replaySafe, confidence, hint);
        assertThat(decision.recoveryState()).isNotNull();
        assertThat(decision.recoveryState().disposition()).isEqualTo(expected);
        assertThat(decision.recoveryState().code()).isEqualTo(code);
        assertThat(decision.recoveryState().errorClass()).isEqualTo(code.errorClass());
        assertThat(decision.armTimers().stream().anyMatch(t -> t.kind() == InteractiveTimerKind.RETRY))
                .isEqualTo(expected == Disposition.AUTO_RETRY);
        assertThat(decision.recoveryState().status()).isEqualTo(switch (expected) {
            case AUTO_RETRY -> RecoveryStatus.SCHEDULED;
            case MANUAL -> RecoveryStatus.MANUAL;
            case NONE -> RecoveryStatus.NONE;
        });
        assertThat(decision.commands()).isEmpty();
    }
}
