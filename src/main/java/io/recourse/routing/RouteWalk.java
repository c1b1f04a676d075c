package io.recourse.routing;

import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The route walk of the Office rules (DESIGN §7.3): walking the candidates, dispatching, waiting on
 * another run's cooldown, parking and waking, declining; each step changes a {@link RoutingDraft}.
 * The 20-attempt cap and the per-candidate reasons of a park are applied here.
 */
final class RouteWalk {

    /**
     * What a dispatch carries on its RouteCommand: the failure's code and rule (or {@code null}) and
     * why it happens ({@link RunReason}, a {@link RoutePath} or a {@link Code} wire name).
     */
    record Cause(Code code, String ruleId, WireName reason) {

        Cause {
            Objects.requireNonNull(reason, "reason");
        }
    }

    private final RoutingSettings settings;

    RouteWalk(RoutingSettings settings) {
        this.settings = Objects.requireNonNull(settings);
    }

    /**
     * Walks the candidates from {@code from}: a candidate whose scope is {@code user_action_required}
     * or degraded past now is skipped (a {@code skipped_*} attempt row), one under another run's
     * cooldown is waited on, the first eligible one is dispatched. None → park, or decline with
     * {@code declineIfNone} when given (launch-path unknown errors never park).
     */
    void route(RoutingDraft x, Run.Builder b, RouteConfig cfg, int from, Cause cause, WireName declineIfNone) {
        int n = cfg.routableCount();
        for (int i = from; i < n; i++) {
            if (b.excluded.contains(i)) {
                continue;
            }
            Candidate c = cfg.candidates().get(i);
            ProviderHealth blocking = blockingHealth(x, c);
            if (blocking != null) {
                boolean user = blocking.state() == HealthState.USER_ACTION_REQUIRED;
                x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt + 1, c.ref(),
                        user ? AttemptOutcome.SKIPPED_USER_ACTION : AttemptOutcome.SKIPPED_DEGRADED, blocking.code(),
                        null, null, null, blocking.retryAt(), x.now, x.now));
                b.excluded.add(i);
                continue;
            }
            Cooldown other = Cooldowns.activeOfOther(x, c, b.runId);
            if (other != null) {
                waitOnCooldown(x, b, other, i);
                return;
            }
            dispatch(x, b, cfg, i, cause);
            return;
        }
        if (declineIfNone != null) {
            decline(x, b, declineIfNone, cause.code(), cause.ruleId());
        } else {
            park(x, b, cfg, null);
        }
    }

    /** Issues the command of candidate {@code i} (launch, same-route retry or fresh continuation), or parks at the cap. */
    void dispatch(RoutingDraft x, Run.Builder b, RouteConfig cfg, int i, Cause cause) {
        Candidate c = cfg.candidates().get(i);
        Code code = cause.code();
        String ruleId = cause.ruleId();
        if (b.attempt >= settings.maxRouteAttempts()) {
            x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt, c.ref(), AttemptOutcome.SKIPPED_MAX_ATTEMPTS,
                    code, null, ruleId, null, null, x.now, x.now));
            park(x, b, cfg, RunReason.MAX_ROUTE_ATTEMPTS);
            return;
        }
        RouteAction action;
        if (b.lastDispatchedCandidate < 0) {
            action = RouteAction.LAUNCH;
        } else if (i != b.lastDispatchedCandidate) {
            action = RouteAction.FRESH_SESSION_CONTINUATION; // a cross-candidate move always starts fresh
            b.retryOrdinal = 0;
            b.maxRetries = 0;
        } else {
            action = b.lastFailureReplaySafe ? RouteAction.RETRY_SAME_ROUTE : RouteAction.FRESH_SESSION_CONTINUATION;
        }
        x.unpark(b);
        b.attempt++;
        String commandId = b.runId + "#" + b.attempt;
        String reason = cause.reason().wire();
        x.commands.add(new RouteCommand(commandId, b.runId, b.workspaceId, b.sessionId, RoutingDraft.expectedGeneration(b),
                action, c.ref(), code, ruleId, reason, b.attempt, x.now));
        x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt, c.ref(), AttemptOutcome.LAUNCHED, code, null,
                ruleId, null, null, x.now, null));
        b.status = RunStatus.ROUTING;
        b.candidateIndex = i;
        b.lastDispatchedCandidate = i;
        b.pendingCommandId = commandId;
        b.pendingIssuedAt = x.now;
        b.retryAt = null;
        b.wakeAt = null;
        b.waitingOn = null;
        b.reason = reason;
        b.updatedAt = x.now;
        x.arm(new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, x.now.plus(settings.dispatchTimeout()), b.runId));
        x.put(b);
    }

    /** The run waits, without a command, for another run's cooldown on candidate {@code candidateIndex}. */
    void waitOnCooldown(RoutingDraft x, Run.Builder b, Cooldown cd, int candidateIndex) {
        x.unpark(b);
        b.status = RunStatus.WAITING_FOR_COOLDOWN;
        b.candidateIndex = candidateIndex;
        b.waitingOn = cd.scope();
        b.retryAt = null;
        b.wakeAt = null;
        b.reason = RunReason.WAITING_FOR_COOLDOWN.wire();
        b.updatedAt = x.now;
        Cooldowns.put(x, cd.withWaiter(b.runId));
        x.put(b);
    }

    /**
     * Parks the run: {@code waiting_for_provider_capacity} with {@code wake_at} = the earliest timed
     * route (a degraded scope's {@code retry_at}, a quota reset), else
     * {@code blocked_provider_action_required} without a timer. {@code forcedReason}
     * ({@code max_route_attempts}) always blocks.
     */
    void park(RoutingDraft x, Run.Builder b, RouteConfig cfg, RunReason forcedReason) {
        Map<String, String> reasons = new LinkedHashMap<>();
        Instant wake = null;
        for (int i = 0; i < cfg.routableCount(); i++) {
            Candidate c = cfg.candidates().get(i);
            ProviderHealth h = blockingHealth(x, c);
            if (h == null) {
                // healthy again (or only passed over in this cycle): a new cycle can use it at once
                reasons.put(c.executionProfileId(), RunReason.ELIGIBLE_NEXT_CYCLE.wire());
                wake = min(wake, x.now);
            } else if (h.state() == HealthState.USER_ACTION_REQUIRED) {
                reasons.put(c.executionProfileId(), HealthState.USER_ACTION_REQUIRED.wire() + ":" + wire(h.code()));
            } else {
                reasons.put(c.executionProfileId(),
                        HealthState.DEGRADED.wire() + ":" + wire(h.code()) + " until " + h.retryAt());
                wake = min(wake, h.retryAt());
            }
        }
        if (forcedReason != null) {
            wake = null;
        }
        x.park(b, wake != null ? RunStatus.WAITING_FOR_PROVIDER_CAPACITY : RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED,
                forcedReason != null ? forcedReason
                        : (wake != null ? RunReason.WAITING_FOR_PROVIDER_CAPACITY : RunReason.BLOCKED_PROVIDER_ACTION_REQUIRED),
                wake, null, reasons);
    }

    /** A wake (timer or control) starts a new route cycle from the first candidate. */
    void wake(RoutingDraft x, Run.Builder b, RouteConfig cfg, RunReason reason) {
        if (cfg == null) {
            decline(x, b, RunReason.NO_ROUTE_CONFIG, b.code, null);
            return;
        }
        if (b.wakeAt != null) {
            x.cancel(new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
        b.wakeAt = null;
        b.cycle++;
        b.excluded.clear();
        b.resetWaitsUsed.clear();
        b.retryOrdinal = 0;
        route(x, b, cfg, 0, new Cause(b.code, null, reason), null);
    }

    /**
     * Gives the run back to the platform: RouteCommand {@code decline}, RunState {@code declined};
     * a cooldown it owned is released and its waiters re-evaluated ({@code cooldown_owner_declined}).
     */
    void decline(RoutingDraft x, Run.Builder b, WireName reason, Code code, String ruleId) {
        x.cancelRunTimers(b);
        x.unpark(b);
        Cooldowns.leave(x, b);
        RouteConfig cfg = b.dynamicProfileId == null ? null : x.config(b.dynamicProfileId);
        Candidate c = RoutingDraft.candidate(cfg, b.candidateIndex);
        x.commands.add(new RouteCommand(b.runId + "#" + b.attempt + ".decline", b.runId, b.workspaceId, b.sessionId,
                RoutingDraft.expectedGeneration(b), RouteAction.DECLINE, c == null ? null : c.ref(), code, ruleId,
                reason.wire(), b.attempt, x.now));
        b.status = RunStatus.DECLINED;
        b.reason = reason.wire();
        b.code = code != null ? code : b.code;
        b.retryAt = null;
        b.wakeAt = null;
        b.pendingCommandId = null;
        b.updatedAt = x.now;
        x.put(b);
        Cooldown own = Cooldowns.ownedBy(x, b.runId);
        if (own != null) { // nobody retries the scope for its waiters any more: re-evaluate them now
            releaseCooldown(x, own.scope(), RunReason.COOLDOWN_OWNER_DECLINED);
        }
    }

    /** The pending command is confirmed (ack or TurnStarted): its timeout is cancelled, the run runs. */
    void confirm(RoutingDraft x, Run.Builder b) {
        if (b.pendingCommandId != null) {
            x.cancel(x.dispatchTimeout(b));
            b.pendingCommandId = null;
            b.status = RunStatus.RUNNING;
            b.updatedAt = x.now;
        }
    }

    /** Writes the RouteAttempt row that ends the run's current attempt. */
    void attemptEnded(RoutingDraft x, Run.Builder b, RouteConfig cfg, AttemptOutcome outcome, TurnOutcome o, Instant hint) {
        Candidate c = RoutingDraft.candidate(cfg, b.candidateIndex);
        Classification cl = o == null ? null : o.classification();
        x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt, c == null ? null : c.ref(), outcome,
                cl == null ? null : cl.code(), cl == null ? null : cl.confidence(), cl == null ? null : cl.ruleId(),
                o == null ? null : (o.launch() ? AttemptPhase.PRE_START : AttemptPhase.POST_START),
                hint != null ? hint : (cl == null ? null : (cl.resetAt() != null ? cl.resetAt() : cl.retryAfter())),
                null, x.now));
    }

    /**
     * Removes the scope's cooldown and routes each of its waiters again (from the candidate it
     * waited on); a scope still shown {@code short_retry} becomes {@code probe_allowed}.
     */
    void releaseCooldown(RoutingDraft x, ScopeKey key, RunReason reason) {
        Cooldown cd = Cooldowns.remove(x, key);
        if (cd == null) {
            return;
        }
        x.endShortPhase(key);
        for (String w : cd.waiters()) {
            Run run = x.runs.get(w);
            if (run == null || run.status() != RunStatus.WAITING_FOR_COOLDOWN || !key.equals(run.waitingOn())) {
                continue;
            }
            RouteConfig cfg = x.config(run.dynamicProfileId());
            Run.Builder b = run.toBuilder();
            b.waitingOn = null;
            if (cfg == null) {
                decline(x, b, RunReason.NO_ROUTE_CONFIG, b.code, null);
            } else {
                route(x, b, cfg, b.candidateIndex, new Cause(b.code, null, reason), null);
            }
        }
    }

    /** The owner left the short phase without success: its waiters are re-evaluated now. */
    void ownerExhausted(RoutingDraft x, Cooldown own) {
        if (own != null && x.cooldowns.containsKey(own.scope())) {
            releaseCooldown(x, own.scope(), RunReason.COOLDOWN_OWNER_EXHAUSTED);
        }
    }

    /** The health that makes the candidate unroutable now ({@code user_action_required} first), or {@code null}. */
    ProviderHealth blockingHealth(RoutingDraft x, Candidate c) {
        ProviderHealth degraded = null;
        for (ScopeKey k : RoutingDraft.scopesOf(x.workspaceId, c)) {
            ProviderHealth h = x.health.get(k);
            if (h != null && h.blocks(x.now)) {
                if (h.state() == HealthState.USER_ACTION_REQUIRED) {
                    return h;
                }
                degraded = degraded == null || h.retryAt().isAfter(degraded.retryAt()) ? h : degraded;
            }
        }
        return degraded;
    }

    private static Instant min(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static String wire(Code c) {
        return c == null ? "unknown" : c.wire();
    }
}
