package io.recourse.routing;

import java.util.List;

/**
 * Everything one routing decision produces (DESIGN §7.4): the new workspace state and the records
 * to write, in the order they were decided. The streaming owner writes them all in one
 * exactly-once transaction and applies {@code cancel} then {@code arm} to its time index.
 *
 * @param commands  RouteCommands due now (a scheduled retry's command is not here: it is armed)
 * @param runStates the final RunState of every run this decision changed (one per run)
 * @param health    ProviderHealth records written (the latest per scope)
 * @param parked    ParkedRun changes; a release means a tombstone
 * @param arm       time-index entries to add
 * @param cancel    time-index entries to remove
 * @param notes     human-readable trace of the decision (why inputs were ignored, etc.)
 * @param changedRuns ids of the runs whose {@link Run} changed (store them) or ended — finished or
 *                  expired, absent from {@code state}: delete them — including internal-only changes
 *                  that publish no RunState
 */
public record RoutingDecision(WorkspaceState state, List<RouteCommand> commands, List<RunState> runStates,
        List<RouteAttempt> attempts, List<ProviderHealth> health, List<ParkedRunChange> parked,
        List<TimerEntry> arm, List<TimerEntry> cancel, List<String> notes, List<String> changedRuns) {

    public RoutingDecision {
        changedRuns = List.copyOf(changedRuns);
        commands = List.copyOf(commands);
        runStates = List.copyOf(runStates);
        attempts = List.copyOf(attempts);
        health = List.copyOf(health);
        parked = List.copyOf(parked);
        arm = List.copyOf(arm);
        cancel = List.copyOf(cancel);
        notes = List.copyOf(notes);
    }

    /** True when the decision changes nothing and writes nothing. */
    public boolean isNoop() {
        return commands.isEmpty() && runStates.isEmpty() && attempts.isEmpty() && health.isEmpty() && parked.isEmpty()
                && arm.isEmpty() && cancel.isEmpty();
    }
}
