package io.recourse.routing;

import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A failed turn of a run's current attempt (DESIGN §7.2, §7.3): {@link RoutingPolicy#evaluate}'s
 * {@link Verdict} applied to the workspace — decline, a same-route retry that owns the scope's
 * cooldown (or waits on another owner's), a wait for a validated reset, a skip to the next
 * candidate, or {@code policy_stop} — with the scope's health changed by the provider health ladder.
 */
final class FailedTurns {

    private final RoutingSettings settings;
    private final RoutingPolicy policy;
    private final ProviderHealthLadder ladder;
    private final RouteWalk walk;

    FailedTurns(RoutingSettings settings, RoutingPolicy policy, ProviderHealthLadder ladder, RouteWalk walk) {
        this.settings = Objects.requireNonNull(settings);
        this.policy = Objects.requireNonNull(policy);
        this.ladder = Objects.requireNonNull(ladder);
        this.walk = Objects.requireNonNull(walk);
    }

    /**
     * Applies the failed TurnOutcome {@code o} of the run being built on candidate {@code cand}
     * ({@code null}: the configuration no longer has it → {@code no_route_config}).
     */
    void failed(RoutingDraft x, Run.Builder b, RouteConfig cfg, Candidate cand, TurnOutcome o) {
        Classification c = o.classification();
        if (cand == null) {
            walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, c == null ? null : c.code(), c == null ? null : c.ruleId());
            return;
        }
        if (c == null) {
            walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, o, null);
            walk.decline(x, b, RunReason.UNCLASSIFIED_POST_START, null, null);
            return;
        }
        b.code = c.code();
        b.lastFailureReplaySafe = o.replaySafe();
        ErrorClass cls = c.code().errorClass();
        Verdict v = policy.evaluate(o, cand,
                new RoutingPolicy.Budget(b.runId, b.attempt, b.retryOrdinal, b.resetWaitsUsed.contains(cls)), x.now);
        ScopeKey scope = ScopeKey.of(x.workspaceId, cand, c.scope());
        if (v.path() == RoutePath.SHORT) {
            Cooldown other = Cooldowns.activeOfOther(x, cand, b.runId);
            if (other != null) { // cooldown without stampede: wait for the owner, no command
                walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, null);
                walk.waitOnCooldown(x, b, other, b.candidateIndex);
                return;
            }
        }
        Cooldown own = Cooldowns.ownedBy(x, b.runId);
        switch (v.kind()) {
            case DECLINE -> {
                walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, o, v.hint());
                walk.decline(x, b, v.reason(), c.code(), c.ruleId());
            }
            case RETRY -> retry(x, b, cfg, o, v, scope, own, c.code());
            case WAIT_FOR_RESET -> {
                walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, v.hint());
                applyHealth(x, scope, v, c.code(), o.recordedAt());
                b.resetWaitsUsed.add(cls);
                b.retryOrdinal = 0;
                parkForReset(x, b, cand, c.code(), v.dueAt());
                walk.ownerExhausted(x, own);
            }
            case SKIP -> {
                boolean unknown = v.path() == RoutePath.LAUNCH_UNKNOWN;
                walk.attemptEnded(x, b, cfg,
                        unknown ? AttemptOutcome.FAILED_OTHER : AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, v.hint());
                applyHealth(x, scope, v, c.code(), o.recordedAt());
                b.excluded.add(b.candidateIndex);
                b.retryOrdinal = 0;
                walk.route(x, b, cfg, b.candidateIndex + 1, new RouteWalk.Cause(c.code(), c.ruleId(), v.reason()),
                        unknown ? v.reason() : null);
                walk.ownerExhausted(x, own);
            }
            case STOP -> {
                walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, v.hint());
                applyHealth(x, scope, v, c.code(), o.recordedAt());
                walk.decline(x, b, RunReason.POLICY_STOP, c.code(), c.ruleId());
                walk.ownerExhausted(x, own);
            }
        }
    }

    /**
     * A same-route retry at the verdict's {@code due_at}; in the short phase the run becomes (or
     * stays) the scope's cooldown owner, keeping every waiter.
     */
    private void retry(RoutingDraft x, Run.Builder b, RouteConfig cfg, TurnOutcome o, Verdict v, ScopeKey scope,
            Cooldown own, Code code) {
        walk.attemptEnded(x, b, cfg, AttemptOutcome.RETRY_SCHEDULED, o, v.hint());
        b.status = RunStatus.SHORT_RETRY;
        b.retryAt = v.dueAt();
        b.retryOrdinal = v.ordinal();
        b.maxRetries = v.maxRetries();
        b.reason = v.reason().wire();
        b.updatedAt = x.now;
        x.arm(new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, v.dueAt(), b.runId));
        if (v.health() == Verdict.HealthEffect.SHORT_RETRY) {
            // keep every waiter: the run's own cooldown (possibly on another scope) and any
            // lapsed cooldown of another owner on this scope whose expiry has not fired yet
            LinkedHashSet<String> merged = new LinkedHashSet<>();
            Cooldown here = x.cooldowns.get(scope);
            if (here != null) {
                merged.addAll(here.waiters());
            }
            if (own != null) {
                merged.addAll(own.waiters());
                if (!own.scope().equals(scope)) {
                    Cooldowns.remove(x, own.scope());
                    x.endShortPhase(own.scope());
                }
            }
            merged.remove(b.runId);
            List<String> waiters = List.copyOf(merged);
            Cooldowns.put(x, new Cooldown(scope, b.runId, v.ordinal(), v.dueAt(),
                    v.dueAt().plus(settings.dispatchTimeout()).plus(settings.cooldownGrace()), waiters));
            for (String w : waiters) {
                Run wr = x.runs.get(w);
                if (wr != null && wr.status() == RunStatus.WAITING_FOR_COOLDOWN) {
                    Run.Builder wb = wr.toBuilder();
                    wb.waitingOn = scope;
                    x.put(wb);
                }
            }
            x.setHealth(ladder.shortRetry(scope, x.health.get(scope), code, v.dueAt(), x.now));
        }
        x.put(b);
    }

    /**
     * Parks the run on its current candidate until the validated reset {@code reset}: a same-route
     * wait for a reset (DESIGN §7.3) is a park like any other — {@code waiting_for_provider_capacity},
     * reason {@code wait_for_reset}, a ParkedRun and one {@code parked_wake} at {@code wake_at} =
     * {@code retry_at} = {@code reset}, when the same route's command is issued ({@link Run#resetWait()}).
     */
    private static void parkForReset(RoutingDraft x, Run.Builder b, Candidate cand, Code code, Instant reset) {
        x.park(b, RunStatus.WAITING_FOR_PROVIDER_CAPACITY, RunReason.WAIT_FOR_RESET, reset, reset,
                Map.of(cand.executionProfileId(), RunReason.WAIT_FOR_RESET.wire() + ":" + code.wire() + " until " + reset));
    }

    /** The scope's health after verdict {@code v} on a failure recorded at {@code anchor}. */
    private void applyHealth(RoutingDraft x, ScopeKey scope, Verdict v, Code code, Instant anchor) {
        ProviderHealth prev = x.health.get(scope);
        switch (v.health()) {
            case NONE -> { }
            case SHORT_RETRY -> x.setHealth(ladder.shortRetry(scope, prev, code, v.dueAt(), x.now));
            case DEGRADE -> x.setHealth(ladder.degrade(scope, prev, code, v.hint(), anchor, x.now));
            case USER_ACTION -> x.setHealth(ladder.userActionRequired(scope, prev, code, x.now));
        }
    }
}
