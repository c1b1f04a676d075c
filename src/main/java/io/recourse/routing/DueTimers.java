package io.recourse.routing;

import java.util.Objects;
import java.util.function.Function;

/**
 * A due entry of the routing owner's time index (DESIGN §8) applied to a {@link RoutingDraft}:
 * a scheduled command, a dispatch timeout, a cooldown's expiry, a parked run's wake, a degraded
 * scope's {@code retry_at} or a run's state expiry.
 */
final class DueTimers {

    private final RoutingSettings settings;
    private final Function<String, RouteConfig> configs;
    private final RouteWalk walk;

    DueTimers(RoutingSettings settings, Function<String, RouteConfig> configs, RouteWalk walk) {
        this.settings = Objects.requireNonNull(settings);
        this.configs = Objects.requireNonNull(configs);
        this.walk = Objects.requireNonNull(walk);
    }

    /**
     * A time-index entry is due (DESIGN §8). An entry that no longer matches the state (its run or
     * cooldown moved on) is ignored. {@code route_command_due} writes the scheduled command;
     * {@code dispatch_timeout} → RouteAttempt {@code failed_other} + decline
     * ({@code dispatch_unconfirmed}); {@code cooldown_expiry} releases the waiters;
     * {@code parked_wake} starts a new route cycle (a reset wait's: the same route's command); {@code health_expiry} publishes the degraded
     * scope {@code probe_allowed} and wakes the parked runs a candidate on it can now route.
     */
    RoutingDecision decide(RoutingDraft x, TimerEntry t) {
        switch (t.kind()) {
            case ROUTE_COMMAND_DUE -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.status().terminal() || run.parked() || !t.due().equals(run.retryAt())) {
                    return x.note(t.id() + ": stale route_command_due ignored").finish();
                }
                RouteConfig cfg = configs.apply(run.dynamicProfileId());
                Run.Builder b = run.toBuilder();
                b.retryAt = null;
                if (RoutingDraft.candidate(cfg, b.candidateIndex) == null) {
                    walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, b.code, null);
                } else {
                    walk.dispatch(x, b, cfg, b.candidateIndex, new RouteWalk.Cause(b.code, null, RunReason.RETRY_DUE));
                }
            }
            case DISPATCH_TIMEOUT -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.status().terminal() || run.pendingCommandId() == null
                        || !t.due().equals(run.pendingIssuedAt().plus(settings.dispatchTimeout()))) {
                    return x.note(t.id() + ": stale dispatch_timeout ignored").finish();
                }
                Run.Builder b = run.toBuilder();
                walk.attemptEnded(x, b, configs.apply(run.dynamicProfileId()), AttemptOutcome.FAILED_OTHER, null, null);
                walk.decline(x, b, RunReason.DISPATCH_UNCONFIRMED, null, null);
            }
            case COOLDOWN_EXPIRY -> {
                Cooldown cd = x.cooldowns.values().stream()
                        .filter(c -> c.scope().healthKey().equals(t.id()) && c.expiresAt().equals(t.due()))
                        .findFirst().orElse(null);
                if (cd == null) {
                    return x.note(t.id() + ": stale cooldown_expiry ignored").finish();
                }
                walk.releaseCooldown(x, cd.scope(), RunReason.COOLDOWN_EXPIRED);
            }
            case RUN_EXPIRY -> {
                Run run = x.runs.get(t.id());
                if (run == null || run.updatedAt() == null || !t.due().equals(run.updatedAt().plus(settings.runRetention()))) {
                    return x.note(t.id() + ": stale run_expiry ignored").finish();
                }
                Run.Builder b = run.toBuilder();
                x.cancelRunTimers(b);
                x.unpark(b);
                Cooldowns.leave(x, b);
                x.runs.remove(run.runId());
                x.changed.add(run.runId());
                x.note(run.runId() + ": run state expired " + settings.runRetention().toDays() + " days after its last event");
            }
            case HEALTH_EXPIRY -> {
                ProviderHealth h = x.health.values().stream()
                        .filter(v -> v.key().healthKey().equals(t.id()) && t.equals(RoutingDraft.expiryOf(v)))
                        .findFirst().orElse(null);
                if (h == null) {
                    return x.note(t.id() + ": stale health_expiry ignored").finish();
                }
                x.setHealth(ProviderHealthLadder.probeAllowed(h, x.now));
                wakeUnblocked(x, h.key());
            }
            case PARKED_WAKE -> {
                Run run = x.runs.get(t.id());
                if (run == null || !run.parked() || !t.due().equals(run.wakeAt())) {
                    return x.note(t.id() + ": stale parked_wake ignored").finish();
                }
                RouteConfig cfg = configs.apply(run.dynamicProfileId());
                Run.Builder b = run.toBuilder();
                if (!run.resetWait()) {
                    walk.wake(x, b, cfg, RunReason.WAKE);
                } else if (RoutingDraft.candidate(cfg, b.candidateIndex) == null) {
                    walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, b.code, null);
                } else { // the reset is due: the same route's command, in the same cycle
                    walk.dispatch(x, b, cfg, b.candidateIndex, new RouteWalk.Cause(b.code, null, RunReason.RETRY_DUE));
                }
            }
        }
        return x.finish();
    }

    /**
     * The parked runs (capacity parks, not reset waits) that a candidate on the expired scope can
     * now route start a new cycle at once: a park's own wake may be later than this scope's
     * {@code retry_at} when the scope was degraded again with an earlier reset after the park.
     */
    private void wakeUnblocked(RoutingDraft x, ScopeKey expired) {
        for (Run run : java.util.List.copyOf(x.runs.values())) {
            Run r = x.runs.get(run.runId()); // an earlier wake of this loop may have changed it
            if (r == null || !r.parked() || r.resetWait() || r.status() != RunStatus.WAITING_FOR_PROVIDER_CAPACITY) {
                continue;
            }
            RouteConfig cfg = configs.apply(r.dynamicProfileId());
            if (cfg == null) {
                continue;
            }
            boolean unblocked = false;
            for (int i = 0; i < cfg.routableCount() && !unblocked; i++) {
                Candidate c = cfg.candidates().get(i);
                unblocked = RoutingDraft.scopesOf(x.workspaceId, c).contains(expired) && walk.blockingHealth(x, c) == null;
            }
            if (unblocked) {
                walk.wake(x, r.toBuilder(), cfg, RunReason.WAKE);
            }
        }
    }
}
