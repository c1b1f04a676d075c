package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.ErrorClass;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Given/when/then scenarios for every rule of DESIGN §6 and §12 items 1–4. */
public class InteractiveRecoveryPolicyTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final String SESSION = "workspace/session-42";
    /** With u = 0.75 the jitter factor is 1 + 0.2 × (2 × 0.75 − 1) = 1.1. */
    private static final double U = 0.75;

    private SessionDriver session;

    @BeforeEach
    public void newSession() {
        session = new SessionDriver(policy(JitterSource.fixed(U)), T0);
    }

    private static InteractiveRecoveryPolicy policy(JitterSource jitter) {
        return new InteractiveRecoveryPolicy(InteractiveConfig.defaults(), jitter);
    }

    private static Duration jittered(int nominalSeconds, double u) {
        return Duration.ofMillis(Math.round(nominalSeconds * 1000 * (1 + 0.2 * (2 * u - 1))));
    }

    /** A user prompt of generation g starts now and fails one second later with {@code code}. */
    private RecoveryDecision userPromptFails(int g, Code code) {
        TurnContext ctx = Turns.user(SESSION, g);
        session.apply(Turns.started(ctx, session.now));
        session.sleepUntil(session.now.plusSeconds(1));
        return session.apply(Turns.failed(ctx, code, session.now));
    }

    private RecoveryDecision userPromptFails(int g, TurnOutcome outcome) {
        session.apply(Turns.started(outcome.context(), session.now));
        session.sleepUntil(outcome.recordedAt());
        return session.apply(outcome);
    }

    /** Lets the pending retry fire and the dispatcher start its generation g (TurnStarted with the command id). */
    private RetryCommand retryDispatchedAs(int g) {
        session.advanceTo(session.state.chain().retryAt());
        RetryCommand command = session.lastCommand();
        session.apply(Turns.startedRetry(Turns.retry(SESSION, g, command), command, session.now));
        return command;
    }

    @Nested
    public class Schedule {

        @Test
        void aHighConfidenceReplaySafeTransientFailureSchedulesAttemptOneAtTheJitteredFiveSeconds() {
            RecoveryDecision d = userPromptFails(1, Code.PROVIDER_OVERLOADED);

            Instant expected = session.now.plus(jittered(5, U));
            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.SCHEDULED);
            assertThat(d.recoveryState().retryAt()).isEqualTo(expected);
            assertThat(d.recoveryState().attempt()).isEqualTo(1);
            assertThat(d.recoveryState().maxAttempts()).isEqualTo(5);
            assertThat(d.armTimers()).contains(new TimerEntry(InteractiveTimerKind.RETRY, expected, SESSION));
            assertThat(d.commands()).as("nothing is written before retry_at").isEmpty();
        }

        @Test
        void secondScaleRetriesAreJitteredPerSessionWithinTwentyPercent() {
            // DESIGN §12 item 1: the reference implementation has no jitter on second-scale retries
            Set<Instant> retryAts = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                SessionDriver s = new SessionDriver(InteractiveRecoveryPolicy.defaults(), T0);
                TurnContext ctx = Turns.user("session-" + i, 1);
                s.apply(Turns.started(ctx, T0));
                RecoveryDecision d = s.apply(Turns.failed(ctx, Code.MODEL_CAPACITY, T0));
                Instant retryAt = d.recoveryState().retryAt();
                assertThat(Duration.between(T0, retryAt)).isBetween(Duration.ofMillis(4000), Duration.ofMillis(6000));
                retryAts.add(retryAt);
            }
            assertThat(retryAts).as("twenty sessions failing together do not retry in lockstep").hasSizeGreaterThan(10);
        }

        @Test
        void aShortRetryAfterHintBeyondTheJitteredDelayBecomesTheRetryInstant() {
            // DESIGN §12 item 2: a 429 with a 12 s hint waits 12 s, not 5.5 s
            Instant failedAt = T0.plusSeconds(1);
            TurnOutcome outcome = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.RATE_LIMITED, Confidence.HIGH, failedAt.plusSeconds(12)), true, false, failedAt);

            RecoveryDecision d = userPromptFails(1, outcome);

            assertThat(d.recoveryState().retryAt()).isEqualTo(failedAt.plusSeconds(12));
        }

        @Test
        void aRetryAfterHintShorterThanTheJitteredDelayDoesNotShortenIt() {
            // DESIGN §12 item 2: the hint bounds the delay from below, it does not replace it
            Instant failedAt = T0.plusSeconds(1);
            TurnOutcome outcome = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.RATE_LIMITED, Confidence.HIGH, failedAt.plusSeconds(2)), true, false, failedAt);

            RecoveryDecision d = userPromptFails(1, outcome);

            assertThat(d.recoveryState().retryAt()).isEqualTo(failedAt.plus(jittered(5, U)));
        }

        @Test
        void rateLimitedWithoutAHintIsManual() {
            RecoveryDecision d = userPromptFails(1, Code.RATE_LIMITED);

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.RATE_LIMIT_NOT_SHORT);
        }

        @Test
        void rateLimitedWithAHintMoreThanSixtySecondsAwayIsManual() {
            Instant failedAt = T0.plusSeconds(1);
            TurnOutcome outcome = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.RATE_LIMITED, Confidence.HIGH, failedAt.plusSeconds(61)), true, false, failedAt);

            RecoveryDecision d = userPromptFails(1, outcome);

            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.RATE_LIMIT_NOT_SHORT);
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void mediumConfidenceNeverAuthorizesAnAutomaticRetry() {
            TurnOutcome outcome = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.PROVIDER_OVERLOADED, Confidence.MEDIUM, null), true, false, T0.plusSeconds(1));

            RecoveryDecision d = userPromptFails(1, outcome);

            assertThat(d.recoveryState().disposition()).isEqualTo(Disposition.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.LOW_CONFIDENCE);
        }

        @Test
        void staleEvidenceIsShownButNeverAuthorizesAnAutomaticRetry() {
            // DESIGN §8: processing time − record time of the terminal frame > 5 min
            TurnContext ctx = Turns.user(SESSION, 1);
            session.apply(Turns.started(ctx, T0));
            Instant recordedAt = T0.plusSeconds(1);
            session.sleepUntil(recordedAt.plus(Duration.ofMinutes(5)).plusMillis(1));

            RecoveryDecision d = session.apply(Turns.failedRecordedAt(ctx, Code.PROVIDER_OVERLOADED, recordedAt, recordedAt));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.STALE_EVIDENCE);
            assertThat(d.recoveryState().code()).isEqualTo(Code.PROVIDER_OVERLOADED);
        }

        @Test
        void evidenceExactlyAtTheStalenessBoundStillAuthorizesTheRetry() {
            TurnContext ctx = Turns.user(SESSION, 1);
            session.apply(Turns.started(ctx, T0));
            session.sleepUntil(T0.plus(Duration.ofMinutes(5)));

            RecoveryDecision d = session.apply(Turns.failedRecordedAt(ctx, Code.PROVIDER_OVERLOADED, T0, T0));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.SCHEDULED);
        }
    }

    @Nested
    public class ReplaySafety {

        @Test
        void aTransientFailureAfterToolActivityIsManualWithTheClassificationShown() {
            // DESIGN §12 item 4: no replay-safety gate on concrete-profile retries in the reference
            TurnOutcome outcome = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH, null), false, false, T0.plusSeconds(1));

            RecoveryDecision d = userPromptFails(1, outcome);

            RecoveryState shown = d.recoveryState();
            assertThat(shown.status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(shown.disposition()).isEqualTo(Disposition.MANUAL);
            assertThat(shown.reason()).isEqualTo(RecoveryReason.NOT_REPLAY_SAFE);
            assertThat(shown.code()).isEqualTo(Code.PROVIDER_OVERLOADED);
            assertThat(shown.errorClass()).isEqualTo(ErrorClass.TRANSIENT);
            assertThat(shown.ruleId()).isEqualTo("rule.provider_overloaded.v1");
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void aResumeGuaranteeFoldedIntoReplaySafeLetsATurnWithEffectsRetry() {
            TurnContext ctx = Turns.user(SESSION, 1);
            TurnOutcome withEffectsButResumable = new TurnOutcome(ctx, io.recourse.evidence.Outcome.FAILED, false,
                    "end_turn", true, true, true, Turns.classification(Code.NETWORK_UNAVAILABLE, Confidence.HIGH, null),
                    T0.plusSeconds(1), T0.plusSeconds(1));

            RecoveryDecision d = userPromptFails(1, withEffectsButResumable);

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.SCHEDULED);
        }
    }

    @Nested
    public class ChainStart {

        @Test
        void aLaunchFailureOfAUserPromptStartsAChain() {
            TurnOutcome launch = Turns.failed(Turns.user(SESSION, 1),
                    Turns.classification(Code.AGENT_TRANSPORT_LOST, Confidence.HIGH, null), true, true, T0.plusSeconds(1));

            RecoveryDecision d = userPromptFails(1, launch);

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.SCHEDULED);
            assertThat(session.state.chain().startGeneration()).isEqualTo(1);
        }

        @Test
        void aFailedContinuationIsManualBecauseItsPromptDidNotComeFromTheUser() {
            TurnContext ctx = Turns.context(SESSION, 1, PromptOrigin.CONTINUATION, null, null, ProfileKind.CONCRETE);

            RecoveryDecision d = userPromptFails(1, Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0.plusSeconds(1)));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.NOT_USER_PROMPT);
        }

        @Test
        void aFailureWithoutAKnownPromptDigestIsManualRatherThanAnUnverifiableReplay() {
            TurnContext ctx = Turns.user(SESSION, 1);

            RecoveryDecision d = session.apply(Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.PROMPT_DIGEST_UNKNOWN);
        }

        @Test
        void aDynamicProfileTurnIsLeftToTheRoutingOwner() {
            TurnContext ctx = Turns.context(SESSION, 1, PromptOrigin.USER, null, null, ProfileKind.DYNAMIC);
            session.apply(Turns.started(ctx, T0));

            RecoveryDecision d = session.apply(Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0));

            assertThat(d.recoveryState()).isNull();
            assertThat(d.armTimers()).isEmpty();
            assertThat(session.status()).isEqualTo(RecoveryStatus.NONE);
        }

        @Test
        void aCompletedTurnPublishesNothing() {
            TurnContext ctx = Turns.user(SESSION, 1);
            session.apply(Turns.started(ctx, T0));

            RecoveryDecision d = session.apply(Turns.completed(ctx, T0.plusSeconds(3)));

            assertThat(d.recoveryState()).isNull();
            assertThat(session.published).isEmpty();
        }
    }

    @Nested
    public class Chains {

        @Test
        void aRetryThatKeepsFailingRunsFiveAttemptsAtNominalDelaysThenIsExhausted() {
            session = new SessionDriver(policy(JitterSource.fixed(0.5)), T0);
            userPromptFails(1, Code.MODEL_CAPACITY);
            int[] nominal = {5, 10, 20, 40, 60};
            int g = 1;
            for (int attempt = 1; attempt <= 5; attempt++) {
                Instant failedAt = session.now;
                assertThat(session.state.chain().retryAt()).isEqualTo(failedAt.plusSeconds(nominal[attempt - 1]));
                RetryCommand command = retryDispatchedAs(g + 1);
                assertThat(command.attempt()).isEqualTo(attempt);
                assertThat(command.expectedGeneration()).isEqualTo(g);
                assertThat(command.chainStartGeneration()).isEqualTo(1);
                g++;
                session.sleepUntil(session.now.plusSeconds(2));
                session.apply(Turns.failed(Turns.retry(SESSION, g, command), Code.MODEL_CAPACITY, session.now));
            }

            assertThat(session.status()).isEqualTo(RecoveryStatus.EXHAUSTED);
            assertThat(session.lastPublished().reason()).isEqualTo(RecoveryReason.ATTEMPTS_EXHAUSTED);
            assertThat(session.lastPublished().disposition()).isEqualTo(Disposition.MANUAL);
            assertThat(session.lastPublished().attempt()).isEqualTo(5);
            assertThat(session.commands).hasSize(5);
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void aRetryThatSucceedsOnTheSecondAttemptDisarmsTheChain() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);
            session.apply(Turns.failed(Turns.retry(SESSION, 2, first), Code.PROVIDER_OVERLOADED, session.now));
            RetryCommand second = retryDispatchedAs(3);

            RecoveryDecision d = session.apply(Turns.completed(Turns.retry(SESSION, 3, second), session.now.plusSeconds(9)));

            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.expectedGeneration()).isEqualTo(2);
            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.RETRY_SUCCEEDED);
            assertThat(d.recoveryState().disposition()).isEqualTo(Disposition.NONE);
            assertThat(session.timers).noneMatch(t -> t.kind() != InteractiveTimerKind.SESSION_EXPIRY);
        }

        @Test
        void aRetryGenerationCancelledByTheUserDisarmsTheChain() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);

            RecoveryDecision d = session.apply(Turns.cancelled(Turns.retry(SESSION, 2, first), session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.TURN_CANCELLED);
        }

        @Test
        void aRetryGenerationThatFailsWithAHardCodeEndsTheChainInManual() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);

            RecoveryDecision d = session.apply(Turns.failed(Turns.retry(SESSION, 2, first), Code.AUTH_REQUIRED, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.USER_ACTION_REQUIRED);
            assertThat(d.recoveryState().code()).isEqualTo(Code.AUTH_REQUIRED);
        }

        @Test
        void aRetryGenerationThatExpiresIdleIsManualWithOutcomeUnknown() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);

            RecoveryDecision d = session.apply(Turns.expired(Turns.retry(SESSION, 2, first), session.now.plus(Duration.ofHours(2))));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.OUTCOME_UNKNOWN);
        }

        @Test
        void theRetryGenerationIsRecognizedByItsCommandIdOnTheTurnOutcomeAloneToo() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());
            RetryCommand first = session.lastCommand();

            RecoveryDecision d = session.apply(Turns.failed(Turns.retry(SESSION, 2, first), Code.PROVIDER_OVERLOADED, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.SCHEDULED);
            assertThat(d.recoveryState().attempt()).isEqualTo(2);
        }

        @Test
        void commandIdsAreDeterministicPerSessionChainStartAndAttemptAndDistinctPerAttempt() {
            userPromptFails(3, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(4);
            session.apply(Turns.failed(Turns.retry(SESSION, 4, first), Code.PROVIDER_OVERLOADED, session.now));
            RetryCommand second = retryDispatchedAs(5);

            assertThat(first.commandId()).isEqualTo(CommandIds.retryCommandId(SESSION, 3, 1));
            assertThat(second.commandId()).isEqualTo(CommandIds.retryCommandId(SESSION, 3, 2));
            assertThat(first.commandId()).isNotEqualTo(second.commandId());
            assertThat(CommandIds.retryCommandId("a/1", 2, 3)).isNotEqualTo(CommandIds.retryCommandId("a", 12, 3));
        }

        @Test
        void theRetryCommandCarriesEveryFieldOfTheChainStartTurn() {
            userPromptFails(1, Code.PROVIDER_UNAVAILABLE);
            Instant retryAt = session.state.chain().retryAt();
            session.advanceTo(retryAt.plusMillis(300));

            RetryCommand c = session.lastCommand();
            assertThat(c.sessionId()).isEqualTo(SESSION);
            assertThat(c.expectedGeneration()).isEqualTo(1);
            assertThat(c.chainStartGeneration()).isEqualTo(1);
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.maxAttempts()).isEqualTo(5);
            assertThat(c.code()).isEqualTo(Code.PROVIDER_UNAVAILABLE);
            assertThat(c.ruleId()).isEqualTo("rule.provider_unavailable.v1");
            assertThat(c.promptDigest()).isEqualTo(Turns.promptDigest(1));
            assertThat(c.turnConfigDigest()).isEqualTo("config-digest");
            assertThat(c.agentProfileId()).isEqualTo(Turns.AGENT_PROFILE);
            assertThat(c.executionProfileId()).isEqualTo(Turns.EXECUTION_PROFILE);
            assertThat(c.modelId()).isEqualTo(Turns.MODEL);
            assertThat(c.retryAt()).isEqualTo(retryAt);
            assertThat(c.issuedAt()).isEqualTo(retryAt.plusMillis(300));
        }
    }

    @Nested
    public class Disarm {

        @Test
        void aNewUserPromptDuringTheCountdownDisarmsTheChainAndItsTimer() {
            // DESIGN §12 item 3: disarm on a new prompt
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();

            RecoveryDecision d = session.apply(Turns.started(Turns.user(SESSION, 2), session.now.plusSeconds(2)));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
            assertThat(d.recoveryState().generation()).isEqualTo(2);
            assertThat(d.cancelTimers()).containsExactly(new TimerEntry(InteractiveTimerKind.RETRY, retryAt, SESSION));
        }

        @Test
        void anyEventOfALaterGenerationWithoutThePendingCommandDisarms() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            TurnContext continuation = Turns.context(SESSION, 2, PromptOrigin.CONTINUATION, null, null, ProfileKind.CONCRETE);

            RecoveryDecision d = session.apply(Turns.progressed(continuation, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void aStaleRetryTimerFiringAfterADisarmChangesNothing() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            TimerEntry due = new TimerEntry(InteractiveTimerKind.RETRY, session.state.chain().retryAt(), SESSION);
            session.apply(Turns.started(Turns.user(SESSION, 2), session.now));
            session.sleepUntil(due.dueAt());

            RecoveryDecision d = session.apply(new TimerFired(due, T0));

            assertThat(d.noop()).isTrue();
            assertThat(session.commands).isEmpty();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(value = ControlAction.class, names = {"MODEL_CHANGED", "PROFILE_CHANGED", "START_FRESH"})
        void aModelOrProfileChangeOrStartFreshDisarmsAScheduledRetry(ControlAction action) {
            // DESIGN §12 item 3: disarm on model change and start fresh
            userPromptFails(1, Code.PROVIDER_OVERLOADED);

            RecoveryDecision d = session.apply(new SessionControl(action, SESSION, 1, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason().wire()).isEqualTo(action.wire());
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void aModelChangeWhileAwaitingTheRetryOutcomeEndsTheChain() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);
            session.apply(new SessionControl(ControlAction.MODEL_CHANGED, SESSION, null, session.now));

            RecoveryDecision d = session.apply(Turns.failed(Turns.retry(SESSION, 2, first), Code.PROVIDER_OVERLOADED, session.now));

            assertThat(session.status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.NOT_USER_PROMPT);
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void cancelRetryCancelsTheCountdown() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);

            RecoveryDecision d = session.apply(new SessionControl(ControlAction.CANCEL_RETRY, SESSION, 1, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.CANCELLED);
            assertThat(d.recoveryState().disposition()).isEqualTo(Disposition.MANUAL);
            assertThat(d.recoveryState().retryAt()).isNull();
            assertThat(session.hasTimer(InteractiveTimerKind.RETRY)).isFalse();
        }

        @Test
        void aSessionStopDisarmsAScheduledRetry() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);

            RecoveryDecision d = session.apply(Turns.stopped(SESSION, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.SESSION_STOPPED);
        }

        @Test
        void aControlForAnOlderGenerationIsIgnored() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand first = retryDispatchedAs(2);
            session.apply(Turns.failed(Turns.retry(SESSION, 2, first), Code.PROVIDER_OVERLOADED, session.now));

            RecoveryDecision d = session.apply(new SessionControl(ControlAction.CANCEL_RETRY, SESSION, 1, session.now));

            assertThat(d.noop()).isTrue();
            assertThat(session.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        }

        @Test
        void aDelayedOutcomeOfAnOlderGenerationIsIgnored() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.apply(Turns.started(Turns.user(SESSION, 3), session.now));
            SessionState before = session.state;

            RecoveryDecision d = session.apply(Turns.failed(Turns.user(SESSION, 2), Code.PROVIDER_OVERLOADED, session.now));

            assertThat(d.noop()).isTrue();
            assertThat(session.state).isEqualTo(before);
        }

        @Test
        void aSecondOutcomeOfTheSameGenerationIsIgnored() {
            TurnContext ctx = Turns.user(SESSION, 1);
            session.apply(Turns.started(ctx, T0));
            session.apply(Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0));
            SessionState before = session.state;

            RecoveryDecision d = session.apply(Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0.plusSeconds(1)));

            assertThat(d.armTimers()).isEmpty();
            assertThat(d.recoveryState()).isNull();
            assertThat(session.state.chain()).isEqualTo(before.chain());
        }

        @Test
        void aLaterGenerationClearsAnOldManualBannerToIdle() {
            userPromptFails(1, Code.AUTH_REQUIRED);

            RecoveryDecision d = session.apply(Turns.started(Turns.user(SESSION, 2), session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.NONE);
            assertThat(d.recoveryState().code()).isNull();
            assertThat(d.recoveryState().generation()).isEqualTo(2);
        }
    }

    @Nested
    public class Dispatch {

        @Test
        void atRetryAtTheCommandAndTheDispatchingStateAreOneDecision() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();

            List<RecoveryDecision> fired = session.advanceTo(retryAt);

            assertThat(fired).hasSize(1);
            RecoveryDecision d = fired.get(0);
            assertThat(d.commands()).hasSize(1);
            assertThat(d.state().status()).isEqualTo(RecoveryStatus.DISPATCHING);
            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISPATCHING);
            assertThat(d.armTimers()).containsExactly(
                    new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, retryAt.plusSeconds(30), SESSION));
        }

        @Test
        void aDispatchedAckMovesToAwaitingOutcomeAndCancelsTheDispatchTimeout() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());
            RetryCommand c = session.lastCommand();

            RecoveryDecision d = session.apply(new InteractiveDispatchAck(c.commandId(), AckStatus.DISPATCHED, null, SESSION, 2, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);
            assertThat(session.hasTimer(InteractiveTimerKind.DISPATCH_TIMEOUT)).isFalse();
            assertThat(session.state.chain().retryGeneration()).isEqualTo(2);
        }

        @Test
        void theRetryTurnStartedBeforeTheAckConfirmsAndTheLaterAckChangesNothing() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            RetryCommand c = retryDispatchedAs(2);
            assertThat(session.status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);

            RecoveryDecision d = session.apply(new InteractiveDispatchAck(c.commandId(), AckStatus.DISPATCHED, null, SESSION, 2, session.now));

            assertThat(d.noop()).isTrue();
            assertThat(session.hasTimer(InteractiveTimerKind.DISPATCH_TIMEOUT)).isFalse();
        }

        @Test
        void aFailedAckMakesTheChainManualWithItsReason() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());

            RecoveryDecision d = session.apply(new InteractiveDispatchAck(session.lastCommand().commandId(), AckStatus.FAILED,
                    DispatchAckReason.SUPERSEDED, SESSION, null, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.SUPERSEDED);
            assertThat(session.hasTimer(InteractiveTimerKind.DISPATCH_TIMEOUT)).isFalse();
        }

        @Test
        void aFailedAckWithoutAKnownReasonIsDispatchFailed() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());

            RecoveryDecision d = session.apply(new InteractiveDispatchAck(session.lastCommand().commandId(), AckStatus.FAILED,
                    DispatchAckReason.DISPATCH_FAILED, SESSION, null, session.now));

            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.DISPATCH_FAILED);
        }

        @Test
        void noConfirmationWithinTheDispatchTimeoutIsManualAndALateAckKeepsItManual() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();
            session.advanceTo(retryAt);
            RetryCommand c = session.lastCommand();

            session.advanceTo(retryAt.plusSeconds(30));
            assertThat(session.lastPublished().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(session.lastPublished().reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);

            RecoveryDecision late = session.apply(new InteractiveDispatchAck(c.commandId(), AckStatus.DISPATCHED, null, SESSION, 2,
                    session.now.plusSeconds(5)));
            assertThat(late.recoveryState().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(late.recoveryState().reason()).isEqualTo(RecoveryReason.DISPATCHED_LATE);
            session.advanceBy(Duration.ofMinutes(10));
            assertThat(session.commands).as("never a second command for one attempt").hasSize(1);
        }

        @Test
        void theDispatchTimeoutIsMeasuredFromTheTaskReachingRunningAfterARestart() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();
            session.advanceTo(retryAt); // dispatching, timeout armed at retryAt + 30 s
            Instant runningAt = retryAt.plusSeconds(20);
            session.restart(policy(JitterSource.fixed(U)), runningAt);

            session.advanceTo(retryAt.plusSeconds(30));
            assertThat(session.status()).as("re-armed at RUNNING + 30 s").isEqualTo(RecoveryStatus.DISPATCHING);
            assertThat(session.timers).contains(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, runningAt.plusSeconds(30), SESSION));

            session.advanceTo(runningAt.plusSeconds(30));
            assertThat(session.status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(session.state.reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);
        }

        @Test
        void aScheduledRetryOverdueByMoreThanTheStalenessBoundAfterARestartBecomesManual() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();
            session.restart(policy(JitterSource.fixed(U)), retryAt.plus(Duration.ofMinutes(5)).plusSeconds(1));

            session.advanceTo(session.now);

            assertThat(session.commands).isEmpty();
            assertThat(session.lastPublished().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(session.lastPublished().reason()).isEqualTo(RecoveryReason.OVERDUE_AFTER_RESTART);
        }

        @Test
        void aDurableScheduledRetryFiresOnceAfterARestartWithinTheStalenessBound() {
            // DESIGN §12 item 3: durable scheduled state, re-armed after a restart
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();
            session.restart(InteractiveRecoveryPolicy.defaults(), retryAt.plusSeconds(90));

            session.advanceTo(session.now);
            session.advanceBy(Duration.ofSeconds(5));

            assertThat(session.commands).hasSize(1);
            RetryCommand c = session.lastCommand();
            assertThat(c.retryAt()).isEqualTo(retryAt);
            assertThat(c.issuedAt()).isEqualTo(retryAt.plusSeconds(90));
            assertThat(session.status()).isEqualTo(RecoveryStatus.DISPATCHING);
        }

        @Test
        void retryNowFiresThePendingRetryAtOnce() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            Instant retryAt = session.state.chain().retryAt();

            RecoveryDecision d = session.apply(new SessionControl(ControlAction.RETRY_NOW, SESSION, 1, session.now));

            assertThat(d.commands()).hasSize(1);
            assertThat(d.commands().get(0).issuedAt()).isEqualTo(session.now);
            assertThat(d.commands().get(0).retryAt()).isEqualTo(session.now);
            assertThat(d.cancelTimers()).contains(new TimerEntry(InteractiveTimerKind.RETRY, retryAt, SESSION));
            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISPATCHING);
            session.advanceTo(retryAt);
            assertThat(session.commands).hasSize(1);
        }

        @Test
        void anAckForAnotherCommandIsIgnored() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());

            RecoveryDecision d = session.apply(new InteractiveDispatchAck("some-other-command", AckStatus.FAILED, DispatchAckReason.SUPERSEDED,
                    SESSION, null, session.now));

            assertThat(d.noop()).isTrue();
            assertThat(session.status()).isEqualTo(RecoveryStatus.DISPATCHING);
        }

        @Test
        void aLaterGenerationWithAnotherCommandIdWhileDispatchingDisarms() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            session.advanceTo(session.state.chain().retryAt());
            TurnContext foreign = Turns.context(SESSION, 2, PromptOrigin.RETRY, "foreign-command", 1, ProfileKind.CONCRETE);

            RecoveryDecision d = session.apply(Turns.started(foreign, session.now));

            assertThat(d.recoveryState().status()).isEqualTo(RecoveryStatus.DISARMED);
            assertThat(d.recoveryState().reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
            assertThat(session.hasTimer(InteractiveTimerKind.DISPATCH_TIMEOUT)).isFalse();
        }
    }

    @Nested
    public class RecoveryStateAndExpiry {

        @Test
        void everyStatusChangeOfAChainIsPublishedWithItsCountdown() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            retryDispatchedAs(2);

            assertThat(session.published).extracting(RecoveryState::status).containsExactly(
                    RecoveryStatus.SCHEDULED, RecoveryStatus.DISPATCHING, RecoveryStatus.AWAITING_OUTCOME);
            assertThat(session.published).allSatisfy(r -> {
                assertThat(r.sessionId()).isEqualTo(SESSION);
                assertThat(r.disposition()).isEqualTo(Disposition.AUTO_RETRY);
                assertThat(r.retryAt()).isEqualTo(session.state.chain().retryAt());
                assertThat(r.providerLabel()).isEqualTo(Turns.PROVIDER);
                assertThat(r.modelLabel()).isEqualTo(Turns.MODEL);
                assertThat(r.maxAttempts()).isEqualTo(5);
            });
            assertThat(session.published.get(2).generation()).isEqualTo(2);
        }

        @Test
        void labelsArePublishedSanitized() {
            TurnContext ctx = new TurnContext(SESSION, 1, PromptOrigin.USER, null, null, ProfileKind.CONCRETE,
                    "claude-acp", "ap", "ep", "https://x.example/v1?key=sk-abc", "model <script>", null, null, null, false);
            session.apply(Turns.started(ctx, T0));

            RecoveryDecision d = session.apply(Turns.failed(ctx, Code.PROVIDER_OVERLOADED, T0));

            assertThat(d.recoveryState().providerLabel()).isEqualTo("https://x.example");
            assertThat(d.recoveryState().modelLabel()).isEqualTo("model_script_");
        }

        @Test
        void idleSessionStateExpiresSevenDaysAfterItsLastEvent() {
            userPromptFails(1, Code.AUTH_REQUIRED);
            Instant lastEvent = session.now;

            session.advanceTo(lastEvent.plus(Duration.ofDays(7)).minusMillis(1));
            assertThat(session.state).isNotNull();
            List<RecoveryDecision> fired = session.advanceTo(lastEvent.plus(Duration.ofDays(7)));

            assertThat(fired).singleElement().satisfies(d -> assertThat(d.expired()).isTrue());
            assertThat(session.state).isNull();
        }

        @Test
        void aLaterEventPostponesExpiryBySevenDaysFromIt() {
            userPromptFails(1, Code.AUTH_REQUIRED);
            session.sleepUntil(session.now.plus(Duration.ofDays(3)));
            session.apply(Turns.started(Turns.user(SESSION, 2), session.now));
            Instant lastEvent = session.now;

            session.advanceTo(lastEvent.plus(Duration.ofDays(6)));
            assertThat(session.state).isNotNull();
            assertThat(session.timers).containsExactly(
                    new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, lastEvent.plus(Duration.ofDays(7)), SESSION));
            session.advanceTo(lastEvent.plus(Duration.ofDays(7)));
            assertThat(session.state).isNull();
        }

        @Test
        void anAwaitingOutcomeChainEndsAtTheOutcomeTimeoutThenItsSessionStateExpires() {
            userPromptFails(1, Code.PROVIDER_OVERLOADED);
            retryDispatchedAs(2); // awaiting_outcome: the retried turn never produces a frame
            session.sleepUntil(session.now.plus(Duration.ofDays(8)));

            List<RecoveryDecision> fired = session.advanceTo(session.now);

            assertThat(fired).hasSize(2);
            assertThat(fired.get(0).state().status()).isEqualTo(RecoveryStatus.MANUAL);
            assertThat(fired.get(0).state().reason()).isEqualTo(RecoveryReason.OUTCOME_TIMEOUT);
            assertThat(fired.get(1).expired()).isTrue();
        }

        @Test
        void inputsForAnUnknownSessionOtherThanEventsCreateNoState() {
            assertThat(session.apply(new SessionControl(ControlAction.CANCEL_RETRY, SESSION, null, T0)).noop()).isTrue();
            assertThat(session.apply(new InteractiveDispatchAck("c", AckStatus.DISPATCHED, null, SESSION, 1, T0)).noop()).isTrue();
            assertThat(session.apply(Turns.stopped(SESSION, T0)).noop()).isTrue();
            assertThat(session.state).isNull();
        }
    }
}
