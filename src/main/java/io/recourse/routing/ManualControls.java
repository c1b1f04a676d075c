package io.recourse.routing;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;

/**
 * The manual controls of a run (DESIGN §7.3), fenced by {@code expected_attempt}: {@code retry_now},
 * {@code try_next_now} and {@code cancel_wait} applied to a {@link RoutingDraft}.
 */
final class ManualControls {

    private final RoutingSettings settings;
    private final Function<String, RouteConfig> configs;
    private final RouteWalk walk;

    ManualControls(RoutingSettings settings, Function<String, RouteConfig> configs, RouteWalk walk) {
        this.settings = Objects.requireNonNull(settings);
        this.configs = Objects.requireNonNull(configs);
        this.walk = Objects.requireNonNull(walk);
    }

    /**
     * A manual control (DESIGN §7.3), fenced by {@code expected_attempt}: {@code retry_now} fires the
     * pending same-route command or wakes a parked run now; {@code try_next_now} skips to the next
     * candidate now (a parked run is woken); {@code cancel_wait} → {@code declined}
     * ({@code cancelled_by_user}). A control that does not apply to the run's status is ignored.
     */
    RoutingDecision decide(RoutingDraft x, RunControl c) {
        Instant now = x.now;
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
        boolean scheduled = run.retryAt() != null; // a same-route command is due: a short retry or a reset wait
        switch (c.action()) {
            case RETRY_NOW -> {
                if (cfg == null) {
                    walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, null, null);
                } else if (scheduled) {
                    if (!run.parked()) { // a reset wait's wake is cancelled by the dispatch that unparks it
                        x.cancel(new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, run.retryAt(), run.runId()));
                    }
                    Cooldown own = Cooldowns.ownedBy(x, run.runId());
                    if (own != null) { // the retry happens now: the cooldown ends from now
                        Cooldowns.put(x, new Cooldown(own.scope(), own.ownerRunId(), own.ordinal(), now,
                                now.plus(settings.dispatchTimeout()).plus(settings.cooldownGrace()), own.waiters()));
                    }
                    b.retryAt = null;
                    walk.dispatch(x, b, cfg, b.candidateIndex, new RouteWalk.Cause(b.code, null, RunReason.RETRY_NOW));
                } else if (run.parked()) {
                    walk.wake(x, b, cfg, RunReason.RETRY_NOW);
                } else {
                    return x.note(run.runId() + ": retry_now ignored in status " + run.status().wire()).finish();
                }
            }
            case TRY_NEXT_NOW -> {
                if (cfg == null) {
                    walk.decline(x, b, RunReason.NO_ROUTE_CONFIG, null, null);
                } else if (run.parked() && !run.resetWait()) {
                    walk.wake(x, b, cfg, RunReason.TRY_NEXT_NOW);
                } else if ((scheduled || run.status() == RunStatus.WAITING_FOR_COOLDOWN)
                        && run.candidateIndex() + 1 < cfg.routableCount()) {
                    x.cancelRunTimers(b);
                    Cooldowns.leave(x, b);
                    b.retryAt = null;
                    b.excluded.add(b.candidateIndex);
                    walk.route(x, b, cfg, b.candidateIndex + 1, new RouteWalk.Cause(b.code, null, RunReason.TRY_NEXT_NOW), null);
                } else {
                    return x.note(run.runId() + ": try_next_now ignored (no alternative or not waiting)").finish();
                }
            }
            case CANCEL_WAIT -> {
                if (run.status() == RunStatus.ROUTING || run.status() == RunStatus.RUNNING) {
                    return x.note(run.runId() + ": cancel_wait ignored, run is not waiting").finish();
                }
                walk.decline(x, b, RunReason.CANCELLED_BY_USER, b.code, null);
            }
        }
        return x.finish();
    }
}
