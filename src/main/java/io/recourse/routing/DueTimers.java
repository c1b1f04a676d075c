package io.recourse.routing;

import java.util.Objects;
import java.util.function.Function;

/**
 * A due entry of the routing owner's time index (DESIGN §8) applied to a {@link RoutingDraft}:
 * a scheduled command, a dispatch timeout, a cooldown's expiry, a parked run's wake or a run's
 * state expiry.
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
     * {@code parked_wake} starts a new route cycle.
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
            case PARKED_WAKE -> {
                Run run = x.runs.get(t.id());
                if (run == null || !run.parked() || !t.due().equals(run.wakeAt())) {
                    return x.note(t.id() + ": stale parked_wake ignored").finish();
                }
                walk.wake(x, run.toBuilder(), configs.apply(run.dynamicProfileId()), RunReason.WAKE);
            }
        }
        return x.finish();
    }
}
