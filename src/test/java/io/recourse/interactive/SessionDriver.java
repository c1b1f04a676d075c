package io.recourse.interactive;

import io.recourse.evidence.SessionEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Plays the processor's part around {@link InteractiveRecoveryPolicy} for one session in tests:
 * keeps the state and a time index (sorted like {@link TimerKey}), fires due entries in order when
 * the clock advances (the wall-clock punctuator of DESIGN §8), and records every output.
 */
final class SessionDriver {

    InteractiveRecoveryPolicy policy;
    SessionState state;
    Instant now;
    Instant taskRunningSince;
    final TreeSet<TimerEntry> timers = new TreeSet<>();
    final List<Decision> decisions = new ArrayList<>();
    final List<RetryCommand> commands = new ArrayList<>();
    final List<RecoveryState> published = new ArrayList<>();

    SessionDriver(InteractiveRecoveryPolicy policy, Instant start) {
        this.policy = policy;
        this.now = start;
        this.taskRunningSince = start;
    }

    Decision apply(InteractiveInput input) {
        Decision d = policy.apply(state, input, now);
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

    Decision apply(SessionEvent event) {
        return apply(InteractiveInput.of(event));
    }

    /** Moves the clock to {@code t} and fires every entry due by then, in time-index order. */
    List<Decision> advanceTo(Instant t) {
        now = t;
        List<Decision> fired = new ArrayList<>();
        while (!timers.isEmpty() && !timers.first().dueAt().isAfter(now)) {
            TimerEntry due = timers.pollFirst();
            fired.add(apply(new TimerFired(due, taskRunningSince)));
        }
        return fired;
    }

    List<Decision> advanceBy(Duration d) {
        return advanceTo(now.plus(d));
    }

    /** Moves the clock without firing (the application is down). */
    void sleepUntil(Instant t) {
        now = t;
    }

    /** A restart: a fresh policy instance over the same durable state and time index. */
    void restart(InteractiveRecoveryPolicy fresh, Instant runningAt) {
        policy = fresh;
        now = runningAt;
        taskRunningSince = runningAt;
    }

    RecoveryStatus status() {
        return state == null ? RecoveryStatus.NONE : state.status();
    }

    RecoveryState lastPublished() {
        return published.get(published.size() - 1);
    }

    RetryCommand lastCommand() {
        return commands.get(commands.size() - 1);
    }

    boolean hasTimer(TimerKind kind) {
        return timers.stream().anyMatch(e -> e.kind() == kind);
    }
}
