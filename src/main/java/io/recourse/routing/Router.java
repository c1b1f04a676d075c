package io.recourse.routing;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.ErrorClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The unattended routing owner's decisions (DESIGN §7.3, the Office rules) as pure functions of
 * (input, workspace state, route configuration, now, jitter) → {@link RoutingDecision}. The streaming
 * owner loads the {@link WorkspaceState} of the input's workspace, calls one {@code on…} method,
 * stores {@link RoutingDecision#state()}, writes the records and applies the timer changes. Nothing here
 * reads a clock or a random source: {@code now} and the {@link JitterSource} are injected.
 *
 * <p>Readings of the design made here: the owner's retried turn showing progress both releases the
 * waiters and writes the scope {@code healthy} (the short phase is over); a completed turn on a
 * scope releases any cooldown on it; an owner that is declined (failed ack, dispatch timeout,
 * {@code cancel_wait}, a gate) releases its cooldown at once, its waiters re-evaluated (nobody is
 * left to retry the scope for them); an owner that finishes (RunFinished) keeps the cooldown until
 * its own expiry; weak (below {@code high}) pre-start evidence never retries or degrades — it may skip to
 * the next candidate like {@code unknown_provider_error}, else declines; a short-phase exhaustion
 * degrades the scope whatever {@code on_exhausted} says; {@code try_next_now} only applies when
 * another candidate exists.
 *
 * <p>Rules implemented (each method's Javadoc names its own): short same-route phase with one
 * cooldown owner per scope and waiters released on the owner's progress or completion,
 * re-evaluated on its exhaustion, and released by the cooldown's own expiry; degradation and
 * fall-through; long-horizon bypass; the provider health ladder; parking with wakes; launch-path
 * rules; {@code policy_stop}; {@code no_route_config}; the 20-attempt cap; manual controls with
 * attempt fencing; dispatch acks and timeouts; stale generations and stale evidence.
 */
public final class Router {

    private final RoutingSettings settings;
    private final Function<String, RouteConfig> configs;
    private final RoutingPolicy policy;
    private final ProviderHealthLadder ladder;

    /**
     * @param configs the validated route configuration by {@code dynamic_profile_id}; returns
     *                {@code null} when the profile has no validated document
     */
    public Router(RoutingSettings settings, JitterSource jitter, Function<String, RouteConfig> configs) {
        this.settings = Objects.requireNonNull(settings);
        this.configs = Objects.requireNonNull(configs);
        this.policy = new RoutingPolicy(settings, jitter);
        this.ladder = new ProviderHealthLadder(settings, jitter);
    }

    /** The class-policy evaluator this router applies. */
    public RoutingPolicy policy() {
        return policy;
    }

    // ------------------------------------------------------------------ inputs

    /**
     * A run asks for a route: a new route cycle from the first candidate. No validated document →
     * {@code declined} ({@code no_route_config}). A request for a run that is still active is ignored.
     */
    public RoutingDecision onRunRequest(RunRequest r, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        Run existing = x.runs.get(r.runId());
        if (existing != null && !existing.status().terminal()) {
            return x.note(r.runId() + ": request ignored, run already routing").finish();
        }
        Run.Builder b = Run.requested(r, now).toBuilder();
        RouteConfig cfg = configs.apply(r.dynamicProfileId());
        if (cfg == null) {
            decline(x, b, "no_route_config", null, null);
            return x.finish();
        }
        b.cycle = 1;
        route(x, b, cfg, 0, null, null, "launch", null);
        return x.finish();
    }

    /** The run is over: its state ends (RunState {@code finished}), timers are cancelled, a park is released. */
    public RoutingDecision onRunFinished(RunFinished f, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        Run run = x.runs.get(f.runId());
        if (run == null) {
            return x.note(f.runId() + ": finish of unknown run ignored").finish();
        }
        Run.Builder b = run.toBuilder();
        cancelRunTimers(x, b);
        unpark(x, b);
        leaveCooldown(x, b);
        b.status = RunStatus.FINISHED;
        b.retryAt = null;
        b.wakeAt = null;
        b.pendingCommandId = null;
        b.updatedAt = now;
        x.finished.put(run.runId(), b.build());
        x.runs.remove(run.runId());
        x.changed.add(run.runId());
        return x.finish();
    }

    /**
     * A manual control (DESIGN §7.3), fenced by {@code expected_attempt}: {@code retry_now} fires the
     * pending same-route command or wakes a parked run now; {@code try_next_now} skips to the next
     * candidate now (a parked run is woken); {@code cancel_wait} → {@code declined}
     * ({@code cancelled_by_user}). A control that does not apply to the run's status is ignored.
     */
    public RoutingDecision onRunControl(RunControl c, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        Run run = x.runs.get(c.runId());
        if (run == null || run.status().terminal()) {
            return x.note(c.runId() + ": control " + c.action().wire() + " for no active run ignored").finish();
        }
        if (c.expectedAttempt() != run.attempt()) {
            return x.note(c.runId() + ": control " + c.action().wire() + " for attempt " + c.expectedAttempt()
                    + " ignored, current attempt " + run.attempt()).finish();
        }
        RouteConfig cfg = configs.apply(run.dynamicProfileId());
        Run.Builder b = run.toBuilder();
        boolean scheduled = run.retryAt() != null && !run.parked();
        switch (c.action()) {
            case RETRY_NOW -> {
                if (cfg == null) {
                    decline(x, b, "no_route_config", null, null);
                } else if (scheduled) {
                    cancel(x, new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, run.retryAt(), run.runId()));
                    Cooldown own = ownedCooldown(x, run.runId());
                    if (own != null) { // the retry happens now: the cooldown ends from now
                        putCooldown(x, new Cooldown(own.scope(), own.ownerRunId(), own.ordinal(), now,
                                now.plus(settings.dispatchTimeout()).plus(settings.cooldownGrace()), own.waiters()));
                    }
                    b.retryAt = null;
                    dispatch(x, b, cfg, b.candidateIndex, b.code, null, "retry_now");
                } else if (run.parked()) {
                    wake(x, b, cfg, "retry_now");
                } else {
                    return x.note(run.runId() + ": retry_now ignored in status " + run.status().wire()).finish();
                }
            }
            case TRY_NEXT_NOW -> {
                if (cfg == null) {
                    decline(x, b, "no_route_config", null, null);
                } else if (run.parked()) {
                    wake(x, b, cfg, "try_next_now");
                } else if ((scheduled || run.status() == RunStatus.WAITING_FOR_COOLDOWN)
                        && run.candidateIndex() + 1 < cfg.routableCount()) {
                    cancelRunTimers(x, b);
                    leaveCooldown(x, b);
                    b.retryAt = null;
                    b.excluded.add(b.candidateIndex);
                    route(x, b, cfg, b.candidateIndex + 1, b.code, null, "try_next_now", null);
                } else {
                    return x.note(run.runId() + ": try_next_now ignored (no alternative or not waiting)").finish();
                }
            }
            case CANCEL_WAIT -> {
                if (run.status() == RunStatus.ROUTING || run.status() == RunStatus.RUNNING) {
                    return x.note(run.runId() + ": cancel_wait ignored, run is not waiting").finish();
                }
                decline(x, b, "cancelled_by_user", b.code, null);
            }
        }
        return x.finish();
    }

    /**
     * A dispatcher's ack (DESIGN §7.3): {@code dispatched} confirms the pending command;
     * {@code failed} → RouteAttempt {@code failed_other} and {@code decline} (never resent). An ack
     * for a command that is not pending (late, duplicate, unknown) is ignored.
     */
    public RoutingDecision onDispatchAck(RoutingDispatchAck a, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        Run run = x.runs.get(a.runId());
        if (run == null || run.status().terminal() || !a.commandId().equals(run.pendingCommandId())) {
            return x.note(a.runId() + ": ack for " + a.commandId() + " ignored, not the pending command").finish();
        }
        Run.Builder b = run.toBuilder();
        if (a.status() == AckStatus.DISPATCHED) {
            confirm(x, b);
            if (a.sessionId() != null) {
                b.sessionId = a.sessionId();
                if (a.promptGeneration() != null) {
                    b.generations.merge(a.sessionId(), a.promptGeneration(), Math::max);
                }
            }
            put(x, b);
        } else {
            RouteConfig cfg = configs.apply(run.dynamicProfileId());
            attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, null, null);
            decline(x, b, (a.reason() == null ? DispatchAckReason.DISPATCH_FAILED : a.reason()).wire(), null, null);
        }
        return x.finish();
    }

    /**
     * A workspace-keyed session event of a run ({@code run_id}, else {@code session_id}).
     * TurnStarted carrying the pending {@code command_id} confirms it; TurnProgressed and a completed
     * TurnOutcome release the cooldown the run owns (and a completion resets the scope to
     * {@code healthy}); a failed TurnOutcome goes through {@link RoutingPolicy#evaluate} and the Office
     * rules. A generation lower than the highest seen on its session is stale and ignored, as is an
     * event of a turn that is not the run's current one. TurnExpired and SessionStopped are not
     * provider evidence and change nothing.
     */
    public RoutingDecision onSessionEvent(SessionEvent e, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        TurnContext tc = contextOf(e);
        String runId = tc.runId() != null ? tc.runId() : tc.sessionId();
        Run run = x.runs.get(runId);
        if (run == null || run.status().terminal()) {
            return x.note(runId + ": event for no active run ignored").finish();
        }
        if (e instanceof SessionStopped || e instanceof TurnExpired) {
            return x.note(runId + ": " + e.getClass().getSimpleName() + " is not provider evidence").finish();
        }
        Integer highest = run.generations().get(e.sessionId());
        if (highest != null && e.promptGeneration() < highest) {
            return x.note(runId + ": stale generation " + e.promptGeneration() + " < " + highest + " ignored").finish();
        }
        boolean confirms = run.pendingCommandId() != null && run.pendingCommandId().equals(tc.commandId());
        boolean current = run.pendingCommandId() != null
                ? confirms
                : (run.status() == RunStatus.RUNNING && e.sessionId().equals(run.sessionId()));
        if (!current) {
            return x.note(runId + ": event of a turn that is not the run's current one ignored").finish();
        }
        Run.Builder b = run.toBuilder();
        b.sessionId = e.sessionId();
        b.generations.merge(e.sessionId(), e.promptGeneration(), Math::max);
        if (confirms) {
            confirm(x, b);
        }
        put(x, b);
        RouteConfig cfg = configs.apply(run.dynamicProfileId());
        Candidate cand = candidate(cfg, b.candidateIndex);
        if (e instanceof TurnProgressed) {
            Cooldown own = ownedCooldown(x, runId);
            if (own != null) {
                setHealth(x, ladder.healthy(own.scope(), x.health.get(own.scope()), now));
                releaseCooldown(x, own.scope(), "cooldown_released");
            }
        } else if (e instanceof TurnOutcome o && o.outcome() == Outcome.COMPLETED) {
            b.status = RunStatus.RUNNING;
            b.retryOrdinal = 0;
            b.maxRetries = 0;
            b.code = null;
            b.reason = null;
            put(x, b);
            if (cand != null) {
                for (ScopeKey k : scopesOf(x.workspaceId, cand)) {
                    ProviderHealth h = x.health.get(k);
                    if (h != null && h.state() != HealthState.HEALTHY) {
                        setHealth(x, ladder.healthy(k, h, now));
                    }
                    if (x.cooldowns.containsKey(k)) {
                        releaseCooldown(x, k, "cooldown_released");
                    }
                }
            }
        } else if (e instanceof TurnOutcome o && o.outcome() == Outcome.FAILED) {
            failed(x, b, cfg, cand, o);
        } else if (e instanceof TurnOutcome o) {
            x.note(runId + ": turn " + o.outcome().wire());
        }
        return x.finish();
    }

    /**
     * A time-index entry is due (DESIGN §8). An entry that no longer matches the state (its run or
     * cooldown moved on) is ignored. {@code route_command_due} writes the scheduled command;
     * {@code dispatch_timeout} → RouteAttempt {@code failed_other} + decline
     * ({@code dispatch_unconfirmed}); {@code cooldown_expiry} releases the waiters;
     * {@code parked_wake} starts a new route cycle.
     */
    public RoutingDecision onTimer(TimerEntry t, WorkspaceState s, Instant now) {
        Ctx x = new Ctx(s, now);
        switch (t.kind()) {
            case ROUTE_COMMAND_DUE -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.status().terminal() || run.parked() || !t.due().equals(run.retryAt())) {
                    return x.note(t.id() + ": stale route_command_due ignored").finish();
                }
                RouteConfig cfg = configs.apply(run.dynamicProfileId());
                Run.Builder b = run.toBuilder();
                b.retryAt = null;
                if (candidate(cfg, b.candidateIndex) == null) {
                    decline(x, b, "no_route_config", b.code, null);
                } else {
                    dispatch(x, b, cfg, b.candidateIndex, b.code, null, "retry_due");
                }
            }
            case DISPATCH_TIMEOUT -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.status().terminal() || run.pendingCommandId() == null
                        || !t.due().equals(run.pendingIssuedAt().plus(settings.dispatchTimeout()))) {
                    return x.note(t.id() + ": stale dispatch_timeout ignored").finish();
                }
                Run.Builder b = run.toBuilder();
                attemptEnded(x, b, configs.apply(run.dynamicProfileId()), AttemptOutcome.FAILED_OTHER, null, null);
                decline(x, b, "dispatch_unconfirmed", null, null);
            }
            case COOLDOWN_EXPIRY -> {
                Cooldown cd = x.cooldowns.values().stream()
                        .filter(c -> c.scope().healthKey().equals(t.id()) && c.expiresAt().equals(t.due()))
                        .findFirst().orElse(null);
                if (cd == null) {
                    return x.note(t.id() + ": stale cooldown_expiry ignored").finish();
                }
                releaseCooldown(x, cd.scope(), "cooldown_expired");
            }
            case RUN_EXPIRY -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.updatedAt() == null || !t.due().equals(run.updatedAt().plus(settings.runRetention()))) {
                    return x.note(t.id() + ": stale run_expiry ignored").finish();
                }
                Run.Builder b = run.toBuilder();
                cancelRunTimers(x, b);
                unpark(x, b);
                leaveCooldown(x, b);
                x.runs.remove(run.runId());
                x.changed.add(run.runId());
                x.note(run.runId() + ": run state expired " + settings.runRetention().toDays() + " days after its last event");
            }
            case PARKED_WAKE -> {
                Run run = x.runs.get(t.id());
                if (run == null || !run.parked() || !t.due().equals(run.wakeAt())) {
                    return x.note(t.id() + ": stale parked_wake ignored").finish();
                }
                wake(x, run.toBuilder(), configs.apply(run.dynamicProfileId()), "wake");
            }
        }
        return x.finish();
    }

    /**
     * Dispatches any input to its method: {@link RunRequest}, {@link RunFinished}, {@link RunControl},
     * {@link RoutingDispatchAck}, {@link SessionEvent}, {@link TimerEntry}.
     *
     * @throws IllegalArgumentException for any other type
     */
    public RoutingDecision decide(Object input, WorkspaceState s, Instant now) {
        if (input instanceof RunRequest r) {
            return onRunRequest(r, s, now);
        } else if (input instanceof RunFinished f) {
            return onRunFinished(f, s, now);
        } else if (input instanceof RunControl c) {
            return onRunControl(c, s, now);
        } else if (input instanceof RoutingDispatchAck a) {
            return onDispatchAck(a, s, now);
        } else if (input instanceof SessionEvent e) {
            return onSessionEvent(e, s, now);
        } else if (input instanceof TimerEntry t) {
            return onTimer(t, s, now);
        }
        throw new IllegalArgumentException("not a routing input: " + (input == null ? "null" : input.getClass().getName()));
    }

    // ------------------------------------------------------------------ failed turns (DESIGN §7.2)

    private void failed(Ctx x, Run.Builder b, RouteConfig cfg, Candidate cand, TurnOutcome o) {
        Classification c = o.classification();
        if (cand == null) {
            decline(x, b, "no_route_config", c == null ? null : c.code(), c == null ? null : c.ruleId());
            return;
        }
        if (c == null) {
            attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, o, null);
            decline(x, b, "unclassified_post_start", null, null);
            return;
        }
        b.code = c.code();
        b.lastFailureReplaySafe = o.replaySafe();
        ErrorClass cls = c.code().errorClass();
        Verdict v = policy.evaluate(o, cand,
                new RoutingPolicy.Budget(b.runId, b.attempt, b.retryOrdinal, b.resetWaitsUsed.contains(cls)), x.now);
        ScopeKey scope = ScopeKey.of(x.workspaceId, cand, c.scope());
        if (v.path() == RoutePath.SHORT) {
            Cooldown other = activeCooldownOther(x, cand, b.runId);
            if (other != null) { // cooldown without stampede: wait for the owner, no command
                attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, null);
                waitOnCooldown(x, b, other, b.candidateIndex);
                return;
            }
        }
        Cooldown own = ownedCooldown(x, b.runId);
        switch (v.kind()) {
            case DECLINE -> {
                attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, o, v.hint());
                decline(x, b, v.reason(), c.code(), c.ruleId());
            }
            case RETRY -> {
                attemptEnded(x, b, cfg, AttemptOutcome.RETRY_SCHEDULED, o, v.hint());
                b.status = RunStatus.SHORT_RETRY;
                b.retryAt = v.dueAt();
                b.retryOrdinal = v.ordinal();
                b.maxRetries = v.maxRetries();
                b.reason = v.reason();
                b.updatedAt = x.now;
                arm(x, new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, v.dueAt(), b.runId));
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
                            removeCooldown(x, own.scope());
                        }
                    }
                    merged.remove(b.runId);
                    List<String> waiters = List.copyOf(merged);
                    putCooldown(x, new Cooldown(scope, b.runId, v.ordinal(), v.dueAt(),
                            v.dueAt().plus(settings.dispatchTimeout()).plus(settings.cooldownGrace()), waiters));
                    for (String w : waiters) {
                        Run wr = x.runs.get(w);
                        if (wr != null && wr.status() == RunStatus.WAITING_FOR_COOLDOWN) {
                            Run.Builder wb = wr.toBuilder();
                            wb.waitingOn = scope;
                            put(x, wb);
                        }
                    }
                    setHealth(x, ladder.shortRetry(scope, x.health.get(scope), c.code(), v.dueAt(), x.now));
                }
                put(x, b);
            }
            case WAIT_FOR_RESET -> {
                attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, v.hint());
                applyHealth(x, scope, v, c.code());
                b.resetWaitsUsed.add(cls);
                b.status = RunStatus.WAITING_FOR_PROVIDER_CAPACITY;
                b.retryAt = v.dueAt();
                b.wakeAt = v.dueAt();
                b.retryOrdinal = 0;
                b.reason = v.reason();
                b.updatedAt = x.now;
                arm(x, new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, v.dueAt(), b.runId));
                put(x, b);
                ownerExhausted(x, own);
            }
            case SKIP -> {
                boolean unknown = v.path() == RoutePath.LAUNCH_UNKNOWN;
                attemptEnded(x, b, cfg, unknown ? AttemptOutcome.FAILED_OTHER : AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE,
                        o, v.hint());
                applyHealth(x, scope, v, c.code());
                b.excluded.add(b.candidateIndex);
                b.retryOrdinal = 0;
                route(x, b, cfg, b.candidateIndex + 1, c.code(), c.ruleId(), v.reason(), unknown ? v.reason() : null);
                ownerExhausted(x, own);
            }
            case STOP -> {
                attemptEnded(x, b, cfg, AttemptOutcome.FAILED_PROVIDER_UNAVAILABLE, o, v.hint());
                applyHealth(x, scope, v, c.code());
                decline(x, b, "policy_stop", c.code(), c.ruleId());
                ownerExhausted(x, own);
            }
        }
    }

    private void applyHealth(Ctx x, ScopeKey scope, Verdict v, Code code) {
        ProviderHealth prev = x.health.get(scope);
        switch (v.health()) {
            case NONE -> { }
            case SHORT_RETRY -> setHealth(x, ladder.shortRetry(scope, prev, code, v.dueAt(), x.now));
            case DEGRADE -> setHealth(x, ladder.degrade(scope, prev, code, v.hint(), x.now));
            case USER_ACTION -> setHealth(x, ladder.userActionRequired(scope, prev, code, x.now));
        }
    }

    /** The owner left the short phase without success: its waiters are re-evaluated now. */
    private void ownerExhausted(Ctx x, Cooldown own) {
        if (own != null && x.cooldowns.containsKey(own.scope())) {
            releaseCooldown(x, own.scope(), "cooldown_owner_exhausted");
        }
    }

    // ------------------------------------------------------------------ routing, parking, dispatch

    /**
     * Walks the candidates from {@code from}: a candidate whose scope is {@code user_action_required}
     * or degraded past now is skipped (a {@code skipped_*} attempt row), one under another run's
     * cooldown is waited on, the first eligible one is dispatched. None → park, or decline with
     * {@code declineIfNone} when given (launch-path unknown errors never park).
     */
    private void route(Ctx x, Run.Builder b, RouteConfig cfg, int from, Code code, String ruleId, String reason,
            String declineIfNone) {
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
            Cooldown other = activeCooldownOther(x, c, b.runId);
            if (other != null) {
                waitOnCooldown(x, b, other, i);
                return;
            }
            dispatch(x, b, cfg, i, code, ruleId, reason);
            return;
        }
        if (declineIfNone != null) {
            decline(x, b, declineIfNone, code, ruleId);
        } else {
            park(x, b, cfg, null);
        }
    }

    private void dispatch(Ctx x, Run.Builder b, RouteConfig cfg, int i, Code code, String ruleId, String reason) {
        Candidate c = cfg.candidates().get(i);
        if (b.attempt >= settings.maxRouteAttempts()) {
            x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt, c.ref(), AttemptOutcome.SKIPPED_MAX_ATTEMPTS,
                    code, null, ruleId, null, null, x.now, x.now));
            park(x, b, cfg, "max_route_attempts");
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
        unpark(x, b);
        b.attempt++;
        String commandId = b.runId + "#" + b.attempt;
        x.commands.add(new RouteCommand(commandId, b.runId, b.workspaceId, b.sessionId, expectedGeneration(b), action,
                c.ref(), code, ruleId, reason, b.attempt, x.now));
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
        arm(x, new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, x.now.plus(settings.dispatchTimeout()), b.runId));
        put(x, b);
    }

    private void waitOnCooldown(Ctx x, Run.Builder b, Cooldown cd, int candidateIndex) {
        unpark(x, b);
        b.status = RunStatus.WAITING_FOR_COOLDOWN;
        b.candidateIndex = candidateIndex;
        b.waitingOn = cd.scope();
        b.retryAt = null;
        b.wakeAt = null;
        b.reason = "waiting_for_cooldown";
        b.updatedAt = x.now;
        putCooldown(x, cd.withWaiter(b.runId));
        put(x, b);
    }

    /**
     * Parks the run: {@code waiting_for_provider_capacity} with {@code wake_at} = the earliest timed
     * route (a degraded scope's {@code retry_at}, a quota reset), else
     * {@code blocked_provider_action_required} without a timer. {@code forcedReason}
     * ({@code max_route_attempts}) always blocks.
     */
    private void park(Ctx x, Run.Builder b, RouteConfig cfg, String forcedReason) {
        Map<String, String> reasons = new LinkedHashMap<>();
        Instant wake = null;
        for (int i = 0; i < cfg.routableCount(); i++) {
            Candidate c = cfg.candidates().get(i);
            ProviderHealth h = blockingHealth(x, c);
            if (h == null) {
                // healthy again (or only passed over in this cycle): a new cycle can use it at once
                reasons.put(c.executionProfileId(), "eligible_next_cycle");
                wake = min(wake, x.now);
            } else if (h.state() == HealthState.USER_ACTION_REQUIRED) {
                reasons.put(c.executionProfileId(), "user_action_required:" + wire(h.code()));
            } else {
                reasons.put(c.executionProfileId(), "degraded:" + wire(h.code()) + " until " + h.retryAt());
                wake = min(wake, h.retryAt());
            }
        }
        if (forcedReason != null) {
            wake = null;
        }
        if (b.parked && b.wakeAt != null) {
            cancel(x, new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
        cancelScheduled(x, b);
        b.status = wake != null ? RunStatus.WAITING_FOR_PROVIDER_CAPACITY : RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED;
        b.reason = forcedReason != null ? forcedReason
                : (wake != null ? "waiting_for_provider_capacity" : "blocked_provider_action_required");
        b.wakeAt = wake;
        b.retryAt = null;
        b.parked = true;
        b.waitingOn = null;
        b.pendingCommandId = null;
        b.updatedAt = x.now;
        if (wake != null) {
            arm(x, new TimerEntry(RoutingTimerKind.PARKED_WAKE, wake, b.runId));
        }
        x.parked.add(new ParkedRunChange(b.runId, new ParkedRun(b.runId, b.workspaceId, b.status, wake, b.reason, reasons,
                x.now)));
        put(x, b);
    }

    /** A wake (timer or control) starts a new route cycle from the first candidate. */
    private void wake(Ctx x, Run.Builder b, RouteConfig cfg, String reason) {
        if (cfg == null) {
            decline(x, b, "no_route_config", b.code, null);
            return;
        }
        if (b.wakeAt != null) {
            cancel(x, new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
        b.wakeAt = null;
        b.cycle++;
        b.excluded.clear();
        b.resetWaitsUsed.clear();
        b.retryOrdinal = 0;
        route(x, b, cfg, 0, b.code, null, reason, null);
    }

    private void decline(Ctx x, Run.Builder b, String reason, Code code, String ruleId) {
        cancelRunTimers(x, b);
        unpark(x, b);
        leaveCooldown(x, b);
        RouteConfig cfg = b.dynamicProfileId == null ? null : configs.apply(b.dynamicProfileId);
        Candidate c = candidate(cfg, b.candidateIndex);
        x.commands.add(new RouteCommand(b.runId + "#" + b.attempt + ".decline", b.runId, b.workspaceId, b.sessionId,
                expectedGeneration(b), RouteAction.DECLINE, c == null ? null : c.ref(), code, ruleId, reason, b.attempt,
                x.now));
        b.status = RunStatus.DECLINED;
        b.reason = reason;
        b.code = code != null ? code : b.code;
        b.retryAt = null;
        b.wakeAt = null;
        b.pendingCommandId = null;
        b.updatedAt = x.now;
        put(x, b);
        Cooldown own = ownedCooldown(x, b.runId);
        if (own != null) { // nobody retries the scope for its waiters any more: re-evaluate them now
            releaseCooldown(x, own.scope(), "cooldown_owner_declined");
        }
    }

    private void confirm(Ctx x, Run.Builder b) {
        if (b.pendingCommandId != null) {
            cancel(x, new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, b.pendingIssuedAt.plus(settings.dispatchTimeout()), b.runId));
            b.pendingCommandId = null;
            b.status = RunStatus.RUNNING;
            b.updatedAt = x.now;
        }
    }

    private void attemptEnded(Ctx x, Run.Builder b, RouteConfig cfg, AttemptOutcome outcome, TurnOutcome o, Instant hint) {
        Candidate c = candidate(cfg, b.candidateIndex);
        Classification cl = o == null ? null : o.classification();
        x.attempts.add(new RouteAttempt(b.runId, b.workspaceId, b.attempt, c == null ? null : c.ref(), outcome,
                cl == null ? null : cl.code(), cl == null ? null : cl.confidence(), cl == null ? null : cl.ruleId(),
                o == null ? null : (o.launch() ? AttemptPhase.PRE_START : AttemptPhase.POST_START),
                hint != null ? hint : (cl == null ? null : (cl.resetAt() != null ? cl.resetAt() : cl.retryAfter())),
                null, x.now));
    }

    // ------------------------------------------------------------------ cooldowns

    private void releaseCooldown(Ctx x, ScopeKey key, String reason) {
        Cooldown cd = removeCooldown(x, key);
        if (cd == null) {
            return;
        }
        for (String w : cd.waiters()) {
            Run run = x.runs.get(w);
            if (run == null || run.status() != RunStatus.WAITING_FOR_COOLDOWN || !key.equals(run.waitingOn())) {
                continue;
            }
            RouteConfig cfg = configs.apply(run.dynamicProfileId());
            Run.Builder b = run.toBuilder();
            b.waitingOn = null;
            if (cfg == null) {
                decline(x, b, "no_route_config", b.code, null);
            } else {
                route(x, b, cfg, b.candidateIndex, b.code, null, reason, null);
            }
        }
    }

    private Cooldown removeCooldown(Ctx x, ScopeKey key) {
        Cooldown cd = x.cooldowns.remove(key);
        if (cd != null) {
            cancel(x, cd.expiryTimer());
        }
        return cd;
    }

    private void putCooldown(Ctx x, Cooldown cd) {
        Cooldown prev = x.cooldowns.put(cd.scope(), cd);
        if (prev == null || !prev.expiresAt().equals(cd.expiresAt())) {
            if (prev != null) {
                cancel(x, prev.expiryTimer());
            }
            arm(x, cd.expiryTimer());
        }
    }

    private void leaveCooldown(Ctx x, Run.Builder b) {
        if (b.waitingOn != null) {
            Cooldown cd = x.cooldowns.get(b.waitingOn);
            if (cd != null) {
                x.cooldowns.put(cd.scope(), cd.withoutWaiter(b.runId));
            }
            b.waitingOn = null;
        }
    }

    private Cooldown ownedCooldown(Ctx x, String runId) {
        return x.cooldowns.values().stream().filter(c -> c.ownerRunId().equals(runId)).findFirst().orElse(null);
    }

    private Cooldown activeCooldownOther(Ctx x, Candidate c, String runId) {
        for (ScopeKey k : scopesOf(x.workspaceId, c)) {
            Cooldown cd = x.cooldowns.get(k);
            if (cd != null && cd.activeAt(x.now) && !cd.ownerRunId().equals(runId)) {
                return cd;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ helpers

    private ProviderHealth blockingHealth(Ctx x, Candidate c) {
        ProviderHealth degraded = null;
        for (ScopeKey k : scopesOf(x.workspaceId, c)) {
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

    private static List<ScopeKey> scopesOf(String workspaceId, Candidate c) {
        return List.of(ScopeKey.provider(workspaceId, c.providerId()), ScopeKey.model(workspaceId, c.providerId(), c.modelId()));
    }

    private static Candidate candidate(RouteConfig cfg, int i) {
        return cfg == null || i < 0 || i >= cfg.candidates().size() ? null : cfg.candidates().get(i);
    }

    private static Integer expectedGeneration(Run.Builder b) {
        return b.sessionId == null ? null : b.generations.get(b.sessionId);
    }

    private void setHealth(Ctx x, ProviderHealth h) {
        ProviderHealth prev = x.health.get(h.key());
        if (prev != null && prev.state() == h.state() && Objects.equals(prev.code(), h.code())
                && Objects.equals(prev.retryAt(), h.retryAt()) && prev.backoffStep() == h.backoffStep()) {
            return; // the same health again (e.g. the 20th run hitting the same reset): no new record
        }
        x.health.put(h.key(), h);
        x.healthOut.remove(h.key());
        x.healthOut.put(h.key(), h);
    }

    private void unpark(Ctx x, Run.Builder b) {
        if (b.parked) {
            if (b.wakeAt != null) {
                cancel(x, new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
            }
            b.parked = false;
            b.wakeAt = null;
            x.parked.add(new ParkedRunChange(b.runId, null));
        }
    }

    private void cancelScheduled(Ctx x, Run.Builder b) {
        if (b.retryAt != null) {
            cancel(x, new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, b.retryAt, b.runId));
        }
        if (b.pendingCommandId != null) {
            cancel(x, new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, b.pendingIssuedAt.plus(settings.dispatchTimeout()), b.runId));
        }
    }

    private void cancelRunTimers(Ctx x, Run.Builder b) {
        cancelScheduled(x, b);
        if (b.wakeAt != null && b.parked) {
            cancel(x, new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
    }

    /** Arms {@code t}; the owner applies {@code cancel} before {@code arm}, so the pair is consistent. */
    private static void arm(Ctx x, TimerEntry t) {
        x.cancel.remove(t);
        if (!x.arm.contains(t)) {
            x.arm.add(t);
        }
    }

    private static void cancel(Ctx x, TimerEntry t) {
        x.arm.remove(t);
        if (!x.cancel.contains(t)) {
            x.cancel.add(t);
        }
    }

    private static void put(Ctx x, Run.Builder b) {
        x.runs.put(b.runId, b.build());
        x.changed.add(b.runId);
    }

    private static Instant min(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static String wire(Code c) {
        return c == null ? "unknown" : c.wire();
    }

    private static TurnContext contextOf(SessionEvent e) {
        if (e instanceof TurnStarted t) {
            return t.context();
        } else if (e instanceof TurnProgressed p) {
            return p.context();
        } else if (e instanceof TurnOutcome o) {
            return o.context();
        } else if (e instanceof TurnExpired t) {
            return t.context();
        }
        return ((SessionStopped) e).context();
    }

    private RunState publish(Run r) {
        Candidate c = candidate(configs.apply(r.dynamicProfileId()), r.candidateIndex());
        return r.toRunState(c == null ? null : c.ref());
    }

    /** The mutable scratch state of one decision. */
    private final class Ctx {
        final WorkspaceState before;
        final Instant now;
        final String workspaceId;
        final Map<String, Run> runs;
        final Map<ScopeKey, ProviderHealth> health;
        final Map<ScopeKey, Cooldown> cooldowns;
        final Map<String, Run> finished = new LinkedHashMap<>();
        final Set<String> changed = new LinkedHashSet<>();
        final List<RouteCommand> commands = new ArrayList<>();
        final List<RouteAttempt> attempts = new ArrayList<>();
        final Map<ScopeKey, ProviderHealth> healthOut = new LinkedHashMap<>();
        final List<ParkedRunChange> parked = new ArrayList<>();
        final List<TimerEntry> arm = new ArrayList<>();
        final List<TimerEntry> cancel = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        Ctx(WorkspaceState s, Instant now) {
            this.before = s;
            this.now = now;
            this.workspaceId = s.workspaceId();
            this.runs = new LinkedHashMap<>(s.runs());
            this.health = new LinkedHashMap<>(s.health());
            this.cooldowns = new LinkedHashMap<>(s.cooldowns());
        }

        Ctx note(String n) {
            notes.add(n);
            return this;
        }

        RoutingDecision finish() {
            // every changed run's last event is now: its state expires a retention after it (DESIGN §7)
            for (String id : changed) {
                Run r = runs.get(id);
                Run old = before.runs().get(id);
                if (old != null && old.updatedAt() != null && !old.updatedAt().equals(now) && !old.equals(r)) {
                    Router.cancel(this, expiryOf(old));
                }
                if (r != null && !r.equals(old)) {
                    if (!now.equals(r.updatedAt())) {
                        Run.Builder b = r.toBuilder();
                        b.updatedAt = now;
                        runs.put(id, b.build());
                    }
                    Router.arm(this, new TimerEntry(RoutingTimerKind.RUN_EXPIRY, now.plus(settings.runRetention()), id));
                }
            }
            List<RunState> states = new ArrayList<>();
            for (String id : changed) {
                Run r = runs.containsKey(id) ? runs.get(id) : finished.get(id);
                if (r == null) {
                    continue;
                }
                RunState now = publish(r);
                Run old = before.runs().get(id);
                if (old == null || !sameVisible(publish(old), now)) {
                    states.add(now);
                }
            }
            WorkspaceState after = new WorkspaceState(workspaceId, runs, health, cooldowns);
            List<String> changedIds = changed.stream()
                    .filter(id -> !Objects.equals(before.runs().get(id), runs.get(id))).toList();
            return new RoutingDecision(after, commands, states, attempts, new ArrayList<>(healthOut.values()), parked, arm,
                    cancel, notes, changedIds);
        }
    }

    private TimerEntry expiryOf(Run r) {
        return new TimerEntry(RoutingTimerKind.RUN_EXPIRY, r.updatedAt().plus(settings.runRetention()), r.runId());
    }

    private static boolean sameVisible(RunState a, RunState b) {
        return Objects.equals(a.status(), b.status()) && Objects.equals(a.candidate(), b.candidate())
                && a.attempt() == b.attempt() && Objects.equals(a.retryAt(), b.retryAt())
                && a.retryOrdinal() == b.retryOrdinal() && a.maxRetries() == b.maxRetries()
                && Objects.equals(a.wakeAt(), b.wakeAt()) && Objects.equals(a.code(), b.code())
                && Objects.equals(a.reason(), b.reason());
    }
}
