package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.CLAUDE;
import static io.recourse.routing.RoutingFixtures.CODEX;
import static io.recourse.routing.RoutingFixtures.GEMINI;
import static io.recourse.routing.RoutingFixtures.PROFILE;
import static io.recourse.routing.RoutingFixtures.T0;
import static io.recourse.routing.RoutingFixtures.WS;
import static io.recourse.routing.RoutingFixtures.high;
import static io.recourse.routing.RoutingFixtures.simulator;
import static io.recourse.routing.RoutingFixtures.threeCandidates;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One scenario per Office rule of DESIGN §7.3, driven through {@link RoutingSimulator}. */
public class RoutingRulesScenarioTest {

    private static final ScopeKey GPT5 = ScopeKey.model(WS, "openai", "gpt-5");
    private static final ScopeKey OPENAI = ScopeKey.provider(WS, "openai");
    private static final ScopeKey ANTHROPIC = ScopeKey.provider(WS, "anthropic");
    private static final ScopeKey GOOGLE = ScopeKey.provider(WS, "google");

    private static List<RouteCommand> commandsOf(RoutingSimulator sim, String runId) {
        return sim.commands().stream().filter(c -> c.runId().equals(runId)).toList();
    }

    private static RouteCommand lastCommand(RoutingSimulator sim, String runId) {
        List<RouteCommand> l = commandsOf(sim, runId);
        return l.get(l.size() - 1);
    }

    private static void failThroughShortPhase(RoutingSimulator sim, String runId, Code code) {
        sim.fail(runId, code);
        for (int i = 0; i < 3; i++) {
            sim.advanceTo(sim.run(runId).retryAt());
            sim.fail(runId, code);
        }
    }

    @Nested
    public class ShortSameRoutePhase {

        @Test
        void modelCapacityIsRetriedOnTheSameRouteAfter5And10And20SecondsWithoutDegrading() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            Instant failedAt = sim.now();
            List<Duration> delays = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Run r = sim.run("r1");
                assertThat(r.status()).isEqualTo(RunStatus.SHORT_RETRY);
                assertThat(sim.healthTable().get(GPT5.healthKey()).state()).isEqualTo(HealthState.SHORT_RETRY);
                delays.add(Duration.between(failedAt, r.retryAt()));
                sim.advanceTo(r.retryAt());
                assertThat(lastCommand(sim, "r1").action()).isEqualTo(RouteAction.RETRY_SAME_ROUTE);
                assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CODEX);
                failedAt = sim.now();
                sim.fail("r1", Code.MODEL_CAPACITY);
            }
            assertThat(delays).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20));
        }

        @Test
        void afterTheShortBudgetTheScopeIsDegradedAndTheRunFallsThroughToTheNextCandidate() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            failThroughShortPhase(sim, "r1", Code.PROVIDER_OVERLOADED);
            assertThat(sim.healthTable().get(OPENAI.healthKey()).state()).isEqualTo(HealthState.DEGRADED);
            RouteCommand next = lastCommand(sim, "r1");
            assertThat(next.candidate()).isEqualTo(CLAUDE);
            assertThat(next.action()).isEqualTo(RouteAction.FRESH_SESSION_CONTINUATION);
        }

        @Test
        void afterTheShortBudgetWithFallbackDisabledTheRunParksUntilTheLadderRetry() {
            RoutingSimulator sim = simulator(threeCandidates().withFallbackEnabled(false));
            sim.request("r1", PROFILE);
            failThroughShortPhase(sim, "r1", Code.NETWORK_UNAVAILABLE);
            Run r = sim.run("r1");
            assertThat(r.status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
            assertThat(r.parked()).isTrue();
            assertThat(r.wakeAt()).isEqualTo(sim.now().plus(Duration.ofMinutes(2)));
            assertThat(commandsOf(sim, "r1")).allMatch(c -> c.candidate().equals(CODEX));
        }

        @Test
        void aRateLimitWithAHintWithin60SecondsIsRetriedNoEarlierThanTheHint() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", RoutingSimulator.classification(Code.RATE_LIMITED, Confidence.HIGH, T0.plusSeconds(42), null),
                    false, false);
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.SHORT_RETRY);
            assertThat(sim.run("r1").retryAt()).isEqualTo(T0.plusSeconds(42));
        }

        @Test
        void notEveryRateLimitIsShortRetried_design12item5() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            Instant hint = T0.plus(Duration.ofHours(4));
            sim.fail("r1", RoutingSimulator.classification(Code.RATE_LIMITED, Confidence.HIGH, hint, null), false, false);
            assertThat(commandsOf(sim, "r1")).extracting(RouteCommand::action)
                    .doesNotContain(RouteAction.RETRY_SAME_ROUTE);
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
            ProviderHealth h = sim.healthTable().get(OPENAI.healthKey());
            assertThat(h.state()).isEqualTo(HealthState.DEGRADED);
            assertThat(h.retryAt()).isEqualTo(hint);
        }

        @Test
        void aRateLimitWithoutAnyHintIsALongHorizonBlock() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.RATE_LIMITED);
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
        }
    }

    @Nested
    public class CooldownWithoutStampede {

        @Test
        void aSecondRunFailingOnTheScopeWaitsWithoutACommand() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            RoutingDecision d = sim.fail("r2", Code.MODEL_CAPACITY);
            assertThat(d.commands()).isEmpty();
            assertThat(sim.run("r2").status()).isEqualTo(RunStatus.WAITING_FOR_COOLDOWN);
            assertThat(sim.state().cooldowns().get(GPT5).ownerRunId()).isEqualTo("r1");
            assertThat(sim.state().cooldowns().get(GPT5).waiters()).containsExactly("r2");
        }

        @Test
        void aNewRequestForAScopeInCooldownWaitsToo() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            RoutingDecision d = sim.request("r2", PROFILE);
            assertThat(d.commands()).isEmpty();
            assertThat(sim.run("r2").status()).isEqualTo(RunStatus.WAITING_FOR_COOLDOWN);
        }

        @Test
        void waitersAreReleasedTogetherWhenTheOwnersRetriedTurnShowsProgress() {
            RoutingSimulator sim = simulator(threeCandidates());
            for (String r : List.of("r1", "r2", "r3")) {
                sim.request(r, PROFILE);
            }
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY);
            sim.fail("r3", Code.MODEL_CAPACITY);
            sim.advanceTo(sim.run("r1").retryAt());
            RoutingDecision d = sim.progress("r1");
            assertThat(d.commands()).extracting(RouteCommand::runId).containsExactly("r2", "r3");
            assertThat(d.commands()).allMatch(c -> c.candidate().equals(CODEX) && c.action() == RouteAction.RETRY_SAME_ROUTE);
            assertThat(sim.state().cooldowns()).isEmpty();
            assertThat(sim.healthTable().get(GPT5.healthKey()).state()).isEqualTo(HealthState.HEALTHY);
        }

        @Test
        void waitersAreReleasedWhenTheOwnersRetriedTurnCompletes() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY);
            sim.advanceTo(sim.run("r1").retryAt());
            RoutingDecision d = sim.complete("r1");
            assertThat(d.commands()).extracting(RouteCommand::runId).containsExactly("r2");
        }

        @Test
        void waitersAreReEvaluatedWhenTheOwnerExhaustsAndFollowItToTheNextCandidate() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY);
            failThroughRemainingRetries(sim, "r1", Code.MODEL_CAPACITY);
            assertThat(lastCommand(sim, "r2").candidate()).isEqualTo(CLAUDE);
            assertThat(sim.run("r2").status()).isEqualTo(RunStatus.RUNNING);
        }

        @Test
        void waitersAreReEvaluatedAtOnceWhenTheOwnerIsDeclined() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY);
            sim.silence("r1");
            sim.advanceTo(sim.run("r1").retryAt()); // the owner's retry is commanded, not yet confirmed
            Instant declinedAt = sim.now();

            RoutingDecision d = sim.ackFailed("r1", "dispatch_failed");

            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.DECLINED);
            assertThat(sim.state().cooldowns()).doesNotContainKey(GPT5);
            assertThat(d.commands()).extracting(RouteCommand::runId).contains("r2");
            assertThat(sim.run("r2").status()).isNotEqualTo(RunStatus.WAITING_FOR_COOLDOWN);
            assertThat(lastCommand(sim, "r2").issuedAt()).isEqualTo(declinedAt);
        }

        @Test
        void theCooldownExpiresByItselfAtTheOwnersLastRetryPlusDispatchTimeoutPlus60Seconds() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY);
            Instant retryAt = sim.run("r1").retryAt();
            assertThat(sim.state().cooldowns().get(GPT5).expiresAt()).isEqualTo(retryAt.plusSeconds(30 + 60));
            sim.advanceTo(retryAt); // the owner's retry is dispatched but nothing more is heard of it
            sim.advanceTo(retryAt.plusSeconds(90).minusMillis(1));
            assertThat(sim.run("r2").status()).isEqualTo(RunStatus.WAITING_FOR_COOLDOWN);
            sim.advanceTo(retryAt.plusSeconds(90));
            assertThat(sim.run("r2").status()).isEqualTo(RunStatus.RUNNING);
            assertThat(lastCommand(sim, "r2").issuedAt()).isEqualTo(retryAt.plusSeconds(90));
        }

        @Test
        void waitersOfALapsedCooldownAreKeptWhenAnotherRunTakesTheScopeOver() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.request("r2", PROFILE);
            sim.request("r3", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.fail("r2", Code.MODEL_CAPACITY); // r2 waits on r1's cooldown
            Instant expiry = sim.state().cooldowns().get(GPT5).expiresAt();
            // the cooldown has lapsed but its expiry has not fired when r3 fails on the scope
            RoutingDecision d = new Router(RoutingSettings.DEFAULTS, JitterSource.none(), Map.of(PROFILE, threeCandidates())::get)
                    .onSessionEvent(new TurnOutcome(sim.currentContext("r3"), Outcome.FAILED, false, "end_turn", false,
                            false, true, high(Code.MODEL_CAPACITY), expiry, expiry), sim.state(), expiry);
            Cooldown taken = d.state().cooldowns().get(GPT5);
            assertThat(taken.ownerRunId()).isEqualTo("r3");
            assertThat(taken.waiters()).contains("r2");
        }

        @Test
        void aProviderScopedCooldownHoldsARunOnAnyModelOfTheProvider() {
            CandidateRef mini = new CandidateRef("codex-mini", "openai", "gpt-5-mini");
            Router router = new Router(RoutingSettings.DEFAULTS, JitterSource.none(),
                    Map.of(PROFILE, threeCandidates(), "dyn-mini", RouteConfig.defaultFor("dyn-mini", List.of(mini)))::get);
            RoutingSimulator sim = new RoutingSimulator(router, WS, T0);
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.PROVIDER_OVERLOADED); // scope provider: (ws, openai)
            RoutingDecision d = sim.request("r2", "dyn-mini");
            assertThat(d.commands()).isEmpty();
            assertThat(sim.run("r2").waitingOn()).isEqualTo(OPENAI);
        }

        @Test
        void aModelScopedCooldownDoesNotHoldARunOnAnotherModelOfTheSameProvider() {
            CandidateRef mini = new CandidateRef("codex-mini", "openai", "gpt-5-mini");
            RouteConfig other = RouteConfig.defaultFor("dyn-mini", List.of(mini));
            RouteConfig main = threeCandidates();
            Router router = new Router(RoutingSettings.DEFAULTS, JitterSource.none(),
                    Map.of(PROFILE, main, "dyn-mini", other)::get);
            RoutingSimulator sim = new RoutingSimulator(router, WS, T0);
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            RoutingDecision d = sim.request("r2", "dyn-mini");
            assertThat(d.commands()).singleElement().satisfies(c -> assertThat(c.candidate()).isEqualTo(mini));
        }

        private void failThroughRemainingRetries(RoutingSimulator sim, String runId, Code code) {
            for (int i = 0; i < 3; i++) {
                sim.advanceTo(sim.run(runId).retryAt());
                sim.fail(runId, code);
            }
        }
    }

    @Nested
    public class LongHorizon {

        @Test
        void quotaBypassesTheShortPhaseAndTheValidatedResetReplacesTheLadder() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            Instant reset = T0.plus(Duration.ofHours(3));
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset), false, false);
            ProviderHealth h = sim.healthTable().get(OPENAI.healthKey());
            assertThat(h.state()).isEqualTo(HealthState.DEGRADED);
            assertThat(h.retryAt()).isEqualTo(reset);
            assertThat(h.backoffStep()).isZero();
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
        }

        @Test
        void authExpiryMarksTheRouteUserActionRequiredWithoutATimerAndTriesTheNextRoute() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.AUTH_REQUIRED);
            ProviderHealth h = sim.healthTable().get(OPENAI.healthKey());
            assertThat(h.state()).isEqualTo(HealthState.USER_ACTION_REQUIRED);
            assertThat(h.retryAt()).isNull();
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
        }

        @Test
        void aLaterRunSkipsARouteThatIsUserActionRequired() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MISSING_CREDENTIALS);
            RoutingDecision d = sim.request("r2", PROFILE);
            assertThat(d.attempts()).extracting(RouteAttempt::outcome)
                    .containsExactly(AttemptOutcome.SKIPPED_USER_ACTION, AttemptOutcome.LAUNCHED);
            assertThat(d.commands().get(0).candidate()).isEqualTo(CLAUDE);
        }
    }

    @Nested
    public class WaitForResetPolicy {

        private RouteConfig waitOn() {
            RouteConfig cfg = threeCandidates();
            return new RouteConfig(cfg.dynamicProfileId(), 1, true, cfg.candidates().stream()
                    .map(c -> new Candidate(c.executionProfileId(), c.providerId(), c.modelId(), new Policies(
                            ClassPolicy.DEFAULT_TRANSIENT, ClassPolicy.DEFAULT_HARD.withWaitForReset(WaitForReset.upTo(3600)))))
                    .toList());
        }

        @Test
        void aResetWithinMaxWaitIsWaitedForOnTheSameRouteOncePerClassPerRouteCycle() {
            RoutingSimulator sim = simulator(waitOn());
            sim.request("r1", PROFILE);
            Instant reset = T0.plusSeconds(600);
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset), false, false);
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
            assertThat(sim.run("r1").wakeAt()).isEqualTo(reset);
            assertThat(sim.run("r1").parked()).as("a reset wait is a park").isTrue();
            assertThat(sim.run("r1").resetWait()).isTrue();
            sim.advanceTo(reset);
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CODEX);
            assertThat(lastCommand(sim, "r1").issuedAt()).isEqualTo(reset);
            // the second reset in the same cycle is not waited for: the route is skipped
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset.plusSeconds(600)),
                    false, false);
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
        }

        @Test
        void aResetWaitDoesNotSpendTheTransientRetryBudget() {
            RoutingSimulator sim = simulator(waitOn());
            sim.request("r1", PROFILE);
            Instant reset = T0.plusSeconds(600);
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset), false, false);
            sim.advanceTo(reset);
            sim.fail("r1", Code.PROVIDER_UNAVAILABLE);
            assertThat(sim.run("r1").retryOrdinal()).isEqualTo(1);
            assertThat(sim.run("r1").maxRetries()).isEqualTo(3);
        }
    }

    @Nested
    public class ProviderHealthRules {

        @Test
        void aCompletedTurnOnTheScopeResetsItToHealthy() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.QUOTA_LIMITED); // openai degraded, r1 on claude
            sim.advance(Duration.ofMinutes(3)); // the ladder's 2 min passed
            sim.request("r2", PROFILE); // routes to codex again
            assertThat(lastCommand(sim, "r2").candidate()).isEqualTo(CODEX);
            sim.complete("r2");
            ProviderHealth h = sim.healthTable().get(OPENAI.healthKey());
            assertThat(h.state()).isEqualTo(HealthState.HEALTHY);
            assertThat(h.backoffStep()).isZero();
        }

        @Test
        void repeatedDegradationAdvancesTheLadderStep() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.QUOTA_LIMITED);
            assertThat(sim.healthTable().get(OPENAI.healthKey()).backoffStep()).isEqualTo(1);
            sim.advance(Duration.ofMinutes(3));
            sim.request("r2", PROFILE);
            sim.fail("r2", Code.QUOTA_LIMITED);
            ProviderHealth h = sim.healthTable().get(OPENAI.healthKey());
            assertThat(h.backoffStep()).isEqualTo(2);
            assertThat(h.retryAt()).isEqualTo(sim.now().plus(Duration.ofMinutes(5)));
        }
    }

    @Nested
    public class Parking {

        @Test
        void whenEveryRouteNeedsTheUserTheRunIsBlockedWithoutAWake() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.AUTH_REQUIRED);
            sim.fail("r1", Code.SUBSCRIPTION_REQUIRED);
            RoutingDecision d = sim.fail("r1", Code.PROVIDER_NOT_CONFIGURED);
            ParkedRun p = d.parked().get(0).parked();
            assertThat(p.status()).isEqualTo(RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED);
            assertThat(p.wakeAt()).isNull();
            assertThat(p.reasons()).containsOnlyKeys("codex-gpt5", "claude-sonnet", "gemini-pro");
            assertThat(d.arm()).noneMatch(t -> t.kind() == RoutingTimerKind.PARKED_WAKE);
        }

        @Test
        void quotaOnEveryRouteParksWithAWakeAtTheEarliestReset_design12item6() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            Instant r0 = T0.plus(Duration.ofHours(5));
            Instant r1 = T0.plus(Duration.ofHours(2));
            Instant r2 = T0.plus(Duration.ofHours(9));
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, r0), false, false);
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, r1), false, false);
            sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, r2), false, false);
            Run r = sim.run("r1");
            assertThat(r.status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
            assertThat(r.wakeAt()).isEqualTo(r1);
            assertThat(sim.parkedRuns().get("r1").wakeAt()).isEqualTo(r1);
        }

        @Test
        void aWakeStartsANewRouteCycleAndEmitsARouteCommandAtTheWake() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            Instant reset = T0.plus(Duration.ofHours(2));
            for (int i = 0; i < 3; i++) {
                sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null,
                        reset.plus(Duration.ofHours(i))), false, false);
            }
            int cycle = sim.run("r1").cycle();
            sim.advanceTo(reset);
            RouteCommand wake = lastCommand(sim, "r1");
            assertThat(wake.issuedAt()).isEqualTo(reset);
            assertThat(wake.candidate()).isEqualTo(CODEX);
            assertThat(sim.run("r1").cycle()).isEqualTo(cycle + 1);
            assertThat(sim.parkedRuns()).doesNotContainKey("r1");
        }
    }

    @Nested
    public class LaunchPath {

        @Test
        void transportLossAtLaunchIsShortRetriedUpToTheCandidatesMaxRetriesThenDeclined_design12item7() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            for (int i = 0; i < 3; i++) {
                sim.fail("r1", high(Code.AGENT_TRANSPORT_LOST), true, false);
                assertThat(sim.run("r1").status()).isEqualTo(RunStatus.SHORT_RETRY);
                sim.advanceTo(sim.run("r1").retryAt());
                assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CODEX);
            }
            RoutingDecision d = sim.fail("r1", high(Code.AGENT_TRANSPORT_LOST), true, false);
            assertThat(d.commands()).singleElement().satisfies(c -> {
                assertThat(c.action()).isEqualTo(RouteAction.DECLINE);
                assertThat(c.reason()).isEqualTo("launch_transport_lost");
            });
            assertThat(sim.healthTable()).isEmpty();
        }

        @Test
        void transportLossAfterStartIsDeclined() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            RoutingDecision d = sim.fail("r1", Code.AGENT_TRANSPORT_LOST);
            assertThat(d.commands().get(0).action()).isEqualTo(RouteAction.DECLINE);
        }

        @Test
        void anUnknownLaunchErrorSkipsToTheNextCandidateWithoutDegradingHealth() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", RoutingSimulator.classification(Code.UNKNOWN_PROVIDER_ERROR, Confidence.LOW, null, null), true, false);
            assertThat(lastCommand(sim, "r1").candidate()).isEqualTo(CLAUDE);
            assertThat(sim.healthTable()).isEmpty();
        }
    }

    @Nested
    public class DeclinesAndCaps {

        @Test
        void onExhaustedStopDeclinesWithPolicyStop() {
            RouteConfig cfg = threeCandidates();
            RouteConfig stop = new RouteConfig(cfg.dynamicProfileId(), 1, true, cfg.candidates().stream()
                    .map(c -> new Candidate(c.executionProfileId(), c.providerId(), c.modelId(),
                            new Policies(ClassPolicy.DEFAULT_TRANSIENT, ClassPolicy.DEFAULT_HARD.withOnExhausted(OnExhausted.STOP))))
                    .toList());
            RoutingSimulator sim = simulator(stop);
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.QUOTA_LIMITED);
            assertThat(lastCommand(sim, "r1").action()).isEqualTo(RouteAction.DECLINE);
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.DECLINED);
            assertThat(sim.run("r1").reason()).isEqualTo("policy_stop");
        }

        @Test
        void aRunWhoseProfileHasNoValidatedDocumentIsDeclinedWithNoRouteConfig() {
            RoutingSimulator sim = simulator(threeCandidates());
            RoutingDecision d = sim.request("r1", "dyn-unknown");
            assertThat(d.runStates()).singleElement().satisfies(s -> {
                assertThat(s.status()).isEqualTo(RunStatus.DECLINED);
                assertThat(s.reason()).isEqualTo("no_route_config");
            });
            assertThat(d.commands().get(0).action()).isEqualTo(RouteAction.DECLINE);
        }

        @Test
        void aRunIsParkedBlockedWithMaxRouteAttemptsAfter20Attempts() {
            RoutingSimulator sim = simulator(RouteConfig.defaultFor(PROFILE, List.of(CODEX)));
            sim.request("r1", PROFILE);
            for (int step = 0; step < 200 && sim.run("r1").status() != RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED; step++) {
                Run r = sim.run("r1");
                if (r.status() == RunStatus.RUNNING) {
                    sim.fail("r1", Code.NETWORK_UNAVAILABLE); // short retries, then degrade, park, wake, again
                } else {
                    sim.advanceTo(r.retryAt() != null ? r.retryAt() : r.wakeAt());
                }
            }
            Run r = sim.run("r1");
            assertThat(r.status()).isEqualTo(RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED);
            assertThat(r.reason()).isEqualTo("max_route_attempts");
            assertThat(r.attempt()).isEqualTo(20);
            assertThat(commandsOf(sim, "r1")).hasSize(20);
            assertThat(sim.parkedRuns().get("r1").wakeAt()).isNull();
        }

        @Test
        void postStartEvidenceBelowHighConfidenceIsDeclined() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            RoutingDecision d = sim.fail("r1", RoutingSimulator.classification(Code.MODEL_CAPACITY, Confidence.MEDIUM, null, null),
                    false, false);
            assertThat(d.commands().get(0).reason()).isEqualTo("low_confidence");
            assertThat(sim.healthTable()).isEmpty();
        }

        @Test
        void evidenceOlderThanTheStalenessBoundIsDeclined() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            TurnContext ctx = sim.currentContext("r1");
            sim.advance(Duration.ofMinutes(6));
            TurnOutcome old = new TurnOutcome(ctx, Outcome.FAILED, false, "end_turn", false, false, true,
                    high(Code.MODEL_CAPACITY), T0, T0);
            RoutingDecision d = sim.event("stale outcome", old);
            assertThat(d.commands().get(0).reason()).isEqualTo("stale_evidence");
        }

        @Test
        void evidenceWithoutARecordTimeFailsClosedAsStale() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            TurnOutcome unknownAge = new TurnOutcome(sim.currentContext("r1"), Outcome.FAILED, false, "end_turn", false,
                    false, true, high(Code.MODEL_CAPACITY), sim.now(), null);
            RoutingDecision d = sim.event("outcome without recorded_at", unknownAge);
            assertThat(d.commands()).hasSize(1);
            assertThat(d.commands().get(0).action()).isEqualTo(RouteAction.DECLINE);
            assertThat(d.commands().get(0).reason()).isEqualTo("stale_evidence");
            assertThat(sim.healthTable()).isEmpty();
        }

        @Test
        void aStaleGenerationIsIgnored() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            TurnContext gen1 = sim.currentContext("r1");
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.advanceTo(sim.run("r1").retryAt()); // generation 2 dispatched on the same session
            assertThat(sim.generationOf("r1")).isEqualTo(2);
            RoutingDecision d = sim.event("late gen-1 outcome", new TurnOutcome(gen1, Outcome.FAILED, false, "end_turn", false,
                    false, true, high(Code.QUOTA_LIMITED), sim.now(), sim.now()));
            assertThat(d.isNoop()).isTrue();
            assertThat(d.notes()).anyMatch(n -> n.contains("stale generation"));
        }

        @Test
        void anOutsideCodeIsDeclinedForThePlatformsGenericScheduler() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            RoutingDecision d = sim.fail("r1", Code.TASK_ERROR);
            assertThat(d.commands().get(0).action()).isEqualTo(RouteAction.DECLINE);
            assertThat(d.health()).isEmpty();
        }
    }

    @Nested
    public class Dispatch {

        @Test
        void aScheduledRetrysCommandIsWrittenOnlyWhenDue() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            RoutingDecision d = sim.fail("r1", Code.PROVIDER_UNAVAILABLE);
            assertThat(d.commands()).isEmpty();
            assertThat(d.arm()).contains(new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, T0.plusSeconds(5), "r1"));
        }

        @Test
        void aFailedAckEndsTheAttemptFailedOtherAndDeclinesWithoutResending() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.silence("r1");
            sim.request("r1", PROFILE);
            RoutingDecision d = sim.ackFailed("r1", "dispatch_failed");
            assertThat(d.attempts()).singleElement().satisfies(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.FAILED_OTHER));
            assertThat(d.commands()).singleElement().satisfies(c -> assertThat(c.action()).isEqualTo(RouteAction.DECLINE));
            sim.advance(Duration.ofMinutes(5));
            assertThat(commandsOf(sim, "r1")).extracting(RouteCommand::action)
                    .containsExactly(RouteAction.LAUNCH, RouteAction.DECLINE);
        }

        @Test
        void noAckAndNoTurnStartedWithinTheDispatchTimeoutDeclinesDispatchUnconfirmed() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.silence("r1");
            sim.request("r1", PROFILE);
            sim.advance(Duration.ofSeconds(29));
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.ROUTING);
            sim.advance(Duration.ofSeconds(1));
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.DECLINED);
            assertThat(sim.run("r1").reason()).isEqualTo("dispatch_unconfirmed");
            RoutingDecision late = sim.input("late ack", new RoutingDispatchAck("r1#1", AckStatus.DISPATCHED, null, "r1", WS, "s", 1,
                    sim.now()));
            assertThat(late.isNoop()).isTrue();
        }

        @Test
        void afterEffectsASameRouteRetryIsAFreshSessionContinuationNeverAReplay() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", high(Code.PROVIDER_OVERLOADED), false, true);
            sim.advanceTo(sim.run("r1").retryAt());
            assertThat(lastCommand(sim, "r1").action()).isEqualTo(RouteAction.FRESH_SESSION_CONTINUATION);
        }

        @Test
        void aRunsStateExpiresSevenDaysAfterItsLastEvent() {
            RoutingSimulator sim = simulator(threeCandidates().withFallbackEnabled(false));
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.AUTH_REQUIRED); // blocked: no timer of its own
            Instant last = sim.now();
            sim.advanceTo(last.plus(Duration.ofDays(7)).minusMillis(1));
            assertThat(sim.run("r1")).isNotNull();
            sim.advanceTo(last.plus(Duration.ofDays(7)));
            assertThat(sim.run("r1")).isNull();
            assertThat(sim.parkedRuns()).doesNotContainKey("r1");
        }

        @Test
        void aLaterEventPushesTheRunsExpiryBack() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.advance(Duration.ofDays(6));
            sim.complete("r1");
            sim.advance(Duration.ofDays(6));
            assertThat(sim.run("r1")).isNotNull();
            assertThat(sim.timers()).filteredOn(t -> t.kind() == RoutingTimerKind.RUN_EXPIRY).singleElement()
                    .satisfies(t -> assertThat(t.due()).isEqualTo(T0.plus(Duration.ofDays(13))));
        }

        @Test
        void runFinishedEndsTheRunsStateAndReleasesItsPark() {
            RoutingSimulator sim = simulator(threeCandidates().withFallbackEnabled(false));
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.AUTH_REQUIRED);
            assertThat(sim.parkedRuns()).containsKey("r1");
            RoutingDecision d = sim.finish("r1");
            assertThat(d.runStates()).singleElement().satisfies(s -> assertThat(s.status()).isEqualTo(RunStatus.FINISHED));
            assertThat(d.parked()).containsExactly(new ParkedRunChange("r1", null));
            assertThat(sim.state().runs()).doesNotContainKey("r1");
        }
    }

    @Nested
    public class ManualControls {

        @Test
        void retryNowFiresThePendingRetryAtOnce() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.advance(Duration.ofSeconds(1));
            RoutingDecision d = sim.control("r1", RunControlAction.RETRY_NOW);
            assertThat(d.commands()).singleElement().satisfies(c -> {
                assertThat(c.issuedAt()).isEqualTo(T0.plusSeconds(1));
                assertThat(c.candidate()).isEqualTo(CODEX);
            });
            assertThat(d.cancel()).contains(new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, T0.plusSeconds(5), "r1"));
        }

        @Test
        void tryNextNowSkipsToTheNextCandidateAtOnce() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            RoutingDecision d = sim.control("r1", RunControlAction.TRY_NEXT_NOW);
            assertThat(d.commands()).singleElement().satisfies(c -> assertThat(c.candidate()).isEqualTo(CLAUDE));
        }

        @Test
        void cancelWaitDeclinesTheRunCancelledByUser() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            sim.control("r1", RunControlAction.CANCEL_WAIT);
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.DECLINED);
            assertThat(sim.run("r1").reason()).isEqualTo("cancelled_by_user");
            sim.advance(Duration.ofMinutes(1));
            assertThat(commandsOf(sim, "r1")).extracting(RouteCommand::action)
                    .containsExactly(RouteAction.LAUNCH, RouteAction.DECLINE);
        }

        @Test
        void aControlForAnotherAttemptIsIgnored() {
            RoutingSimulator sim = simulator(threeCandidates());
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.MODEL_CAPACITY);
            RoutingDecision d = sim.control("r1", RunControlAction.CANCEL_WAIT, sim.run("r1").attempt() + 1);
            assertThat(d.isNoop()).isTrue();
            assertThat(sim.run("r1").status()).isEqualTo(RunStatus.SHORT_RETRY);
        }

        @Test
        void retryNowWakesAParkedRun() {
            RoutingSimulator sim = simulator(RouteConfig.defaultFor(PROFILE, List.of(GEMINI)));
            sim.request("r1", PROFILE);
            sim.fail("r1", Code.QUOTA_LIMITED);
            assertThat(sim.run("r1").parked()).isTrue();
            RoutingDecision d = sim.control("r1", RunControlAction.RETRY_NOW);
            // the route is still degraded: the new cycle parks again, with a fresh record
            assertThat(d.commands()).isEmpty();
            assertThat(sim.run("r1").parked()).isTrue();
            assertThat(sim.run("r1").cycle()).isEqualTo(2);
        }
    }
}
