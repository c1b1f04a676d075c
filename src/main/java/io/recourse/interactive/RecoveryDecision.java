package io.recourse.interactive;

import java.util.List;
import java.util.Objects;

/**
 * What the processor writes after applying one input (DESIGN §6.3), all in one exactly-once
 * transaction: the new session state, the RetryCommands, the RecoveryState, and the time-index
 * changes.
 *
 * @param state         the new session state; {@code null} when there is none (an ignored input
 *                      for an unknown session, or {@code expired})
 * @param changed       true when {@code state} differs from the state given to the policy: put it
 *                      into the store (the processor may skip the write otherwise)
 * @param expired       true when the session state expired (DESIGN §6.3): delete it from the store
 *                      and write a tombstone for the session to {@code recourse.kanban.recovery-state}
 * @param commands      RetryCommands to write, at most one
 * @param recoveryState the RecoveryState to write, or {@code null} when what it shows did not change
 * @param armTimers     entries to put into the time index
 * @param cancelTimers  entries to delete from the time index (never the entry being fired: the
 *                      processor deletes that one before applying it)
 */
public record RecoveryDecision(
        SessionState state,
        boolean changed,
        boolean expired,
        List<RetryCommand> commands,
        RecoveryState recoveryState,
        List<TimerEntry> armTimers,
        List<TimerEntry> cancelTimers) {

    public RecoveryDecision {
        commands = List.copyOf(commands);
        armTimers = List.copyOf(armTimers);
        cancelTimers = List.copyOf(cancelTimers);
        if (expired && state != null) {
            throw new IllegalArgumentException("an expired decision has no state");
        }
    }

    /** Nothing happens: the input was stale, a duplicate, or not for this owner. */
    public static RecoveryDecision unchanged(SessionState state) {
        return new RecoveryDecision(state, false, false, List.of(), null, List.of(), List.of());
    }

    /** True when nothing is to be written at all. */
    public boolean noop() {
        return !changed && !expired && commands.isEmpty() && recoveryState == null
                && armTimers.isEmpty() && cancelTimers.isEmpty();
    }

    /** The state's status, or {@link RecoveryStatus#NONE} without a state. */
    public RecoveryStatus status() {
        return state == null ? RecoveryStatus.NONE : state.status();
    }

    @Override
    public String toString() {
        return "RecoveryDecision[status=" + status().wire() + ", changed=" + changed + ", expired=" + expired
                + ", commands=" + commands + ", recoveryState=" + recoveryState
                + ", arm=" + armTimers + ", cancel=" + cancelTimers + ", state=" + Objects.toString(state) + "]";
    }
}
