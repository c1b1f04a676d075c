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
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Instant;
import java.util.Objects;
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
 *
 * <p>The parts: {@link RoutingDraft} (one decision's scratch state and its records),
 * {@link Cooldowns}, {@link RouteWalk} (walk, dispatch, park, wake, decline), {@link FailedTurns}
 * (a failed turn's verdict applied), {@link ManualControls} and {@link DueTimers}; every reason is
 * a {@link RunReason}, a {@link RoutePath} or a code.
 */
public final class Router {

    private final RoutingSettings settings;
    private final Function<String, RouteConfig> configs;
    private final RoutingPolicy policy;
    private final ProviderHealthLadder ladder;
    private final RouteWalk walk;
    private final FailedTurns failedTurns;
    private final ManualControls controls;
    private final DueTimers timers;

    /**
     * @param configs the validated route configuration by {@code dynamic_profile_id}; returns
     *                {@code null} when the profile has no validated document
     */
    public Router(RoutingSettings settings, JitterSource jitter, Function<String, RouteConfig> configs) {
        this.settings = Objects.requireNonNull(settings);
        this.configs = Objects.requireNonNull(configs);
        this.policy = new RoutingPolicy(settings, jitter);
        this.ladder = new ProviderHealthLadder(settings, jitter);
        this.walk = new RouteWalk(settings);
        this.failedTurns = new FailedTurns(settings, policy, ladder, walk);
        this.controls = new ManualControls(settings, configs, walk);
        this.timers = new DueTimers(settings, configs, walk);
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
        RoutingDraft x = new RoutingDraft(settings, configs, s, now);
        Run existing = x.runs.get(r.runId());
        if (existing != null && !existing.status().terminal()) {
            return x.note(r.runId() + ": request ignored, run already routing").finish();
        }
        Run.Builder b = Run.requested(r, now).toBuilder();
        RouteConfig cfg = configs.apply(r.dynamicProfileId());
        if (cfg == null) {
            walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, null, null);
            return x.finish();
        }
        b.cycle = 1;
        walk.route(x, b, cfg, 0, new RouteWalk.Cause(null, null, RunReason.LAUNCH), null);
        return x.finish();
    }

    /** The run is over: its state ends (RunState {@code finished}), timers are cancelled, a park is released. */
    public RoutingDecision onRunFinished(RunFinished f, WorkspaceState s, Instant now) {
        RoutingDraft x = new RoutingDraft(settings, configs, s, now);
        Run run = x.runs.get(f.runId());
        if (run == null) {
            return x.note(f.runId() + ": finish of unknown run ignored").finish();
        }
        Run.Builder b = run.toBuilder();
        x.cancelRunTimers(b);
        x.unpark(b);
        Cooldowns.leave(x, b);
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
        return controls.decide(new RoutingDraft(settings, configs, s, now), c);
    }

    /**
     * A dispatcher's ack (DESIGN §7.3): {@code dispatched} confirms the pending command;
     * {@code failed} → RouteAttempt {@code failed_other} and {@code decline} (never resent). An ack
     * for a command that is not pending (late, duplicate, unknown) is ignored.
     */
    public RoutingDecision onDispatchAck(RoutingDispatchAck a, WorkspaceState s, Instant now) {
        RoutingDraft x = new RoutingDraft(settings, configs, s, now);
        Run run = x.runs.get(a.runId());
        if (run == null || run.status().terminal() || !a.commandId().equals(run.pendingCommandId())) {
            return x.note(a.runId() + ": ack for " + a.commandId() + " ignored, not the pending command").finish();
        }
        Run.Builder b = run.toBuilder();
        if (a.status() == AckStatus.DISPATCHED) {
            walk.confirm(x, b);
            if (a.sessionId() != null) {
                b.sessionId = a.sessionId();
                if (a.promptGeneration() != null) {
                    b.generations.merge(a.sessionId(), a.promptGeneration(), Math::max);
                }
            }
            x.put(b);
        } else {
            RouteConfig cfg = configs.apply(run.dynamicProfileId());
            walk.attemptEnded(x, b, cfg, AttemptOutcome.FAILED_OTHER, null, null);
            walk.decline(x, b, a.reason() == null ? DispatchAckReason.DISPATCH_FAILED : a.reason(), null, null);
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
        RoutingDraft x = new RoutingDraft(settings, configs, s, now);
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
            walk.confirm(x, b);
        }
        x.put(b);
        RouteConfig cfg = configs.apply(run.dynamicProfileId());
        Candidate cand = RoutingDraft.candidate(cfg, b.candidateIndex);
        if (e instanceof TurnProgressed) {
            Cooldown own = Cooldowns.ownedBy(x, runId);
            if (own != null) {
                x.setHealth(ladder.healthy(own.scope(), x.health.get(own.scope()), now));
                walk.releaseCooldown(x, own.scope(), RunReason.COOLDOWN_RELEASED);
            }
        } else if (e instanceof TurnOutcome o && o.outcome() == Outcome.COMPLETED) {
            b.status = RunStatus.RUNNING;
            b.retryOrdinal = 0;
            b.maxRetries = 0;
            b.code = null;
            b.reason = null;
            x.put(b);
            if (cand != null) {
                for (ScopeKey k : RoutingDraft.scopesOf(x.workspaceId, cand)) {
                    ProviderHealth h = x.health.get(k);
                    if (h != null && h.state() != HealthState.HEALTHY) {
                        x.setHealth(ladder.healthy(k, h, now));
                    }
                    if (x.cooldowns.containsKey(k)) {
                        walk.releaseCooldown(x, k, RunReason.COOLDOWN_RELEASED);
                    }
                }
            }
        } else if (e instanceof TurnOutcome o && o.outcome() == Outcome.FAILED) {
            failedTurns.failed(x, b, cfg, cand, o);
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
        return timers.decide(new RoutingDraft(settings, configs, s, now), t);
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
}
