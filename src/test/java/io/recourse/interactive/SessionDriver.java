package io.recourse.interactive;

import io.recourse.evidence.SessionEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Plays the processor's part around {@link InteractiveRecoveryPolicy} for one session in tests:
 * keeps the state and a time index (sorted like {@link io.recourse.kit.TimeIndexKey}), fires due entries in order when
 * the clock advances (the wall-clock punctuator of DESIGN §8), and records every output.
 */
public final class SessionDriver {

    public InteractiveRecoveryPolicy policy;
    public SessionState state;
    public Instant now;
    public Instant taskRunningSince;
    public final TreeSet<TimerEntry> timers = new TreeSet<>();
    public final List<RecoveryDecision> decisions = new ArrayList<>();
    public final List<RetryCommand> commands = new ArrayList<>();
    public final List<RecoveryState> published = new ArrayList<>();

    public SessionDriver(InteractiveRecoveryPolicy policy, Instant start) {
        this.policy = policy;
        this.now = start;
        this.taskRunningSince = start;
    }

    public RecoveryDecision apply(InteractiveInput input) {
        RecoveryDecision d = policy.apply(state, input, now);
        decisions.add(d);
        commands.addAll(d.commands());
        if (d.recoveryState() != null) {
            published.add(d.recoveryState());
        }
        d.cancelTimers().forEach(timers::remove);
        timers.addAll(d.armTimers());
        state = d.state();
        return d;
    }

    public RecoveryDecision apply(SessionEvent event) {
        return apply(InteractiveInput.of(event));
    }

    /** Moves the clock to {@code t} and fires every entry due by then, in time-index order. */
    public List<RecoveryDecision> advanceTo(Instant t) {
        now = t;
        List<RecoveryDecision> fired = new ArrayList<>();
        while (!timers.isEmpty() && !timers.first().dueAt().isAfter(now)) {
            TimerEntry due = timers.pollFirst();
            fired.add(apply(new TimerFired(due, taskRunningSince)));
        }
        return fired;
    }

    public List<RecoveryDecision> advanceBy(Duration d) {
        return advanceTo(now.plus(d));
    }

    /** Moves the clock without firing (the application is down). */
    public void sleepUntil(Instant t) {
        now = t;
    }

    /** A restart: a fresh policy instance over the same durable state and time index. */
    public void restart(InteractiveRecoveryPolicy fresh, Instant runningAt) {
        policy = fresh;
        now = runningAt;
        taskRunningSince = runningAt;
    }

    public RecoveryStatus status() {
        return state == null ? RecoveryStatus.NONE : state.status();
    }

    public RecoveryState lastPublished() {
        return published.get(published.size() - 1);
    }

    public RetryCommand lastCommand() {
        return commands.get(commands.size() - 1);
    }

    public boolean hasTimer(InteractiveTimerKind kind) {
        return timers.stream().anyMatch(e -> e.kind() == kind);
    }
}
