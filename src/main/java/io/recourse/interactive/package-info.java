/**
 * Interactive (Kanban) recovery for sessions on a concrete profile (DESIGN §6): the pure policy
 * {@link io.recourse.interactive.InteractiveRecoveryPolicy} and its values. No Kafka types: the
 * streaming processor loads a {@link io.recourse.interactive.SessionState}, calls
 * {@code apply(state, input, now)}, writes the {@link io.recourse.interactive.RecoveryDecision}'s state,
 * {@link io.recourse.interactive.RetryCommand}s and {@link io.recourse.interactive.RecoveryState} in
 * one exactly-once transaction, and keeps the time index with
 * {@link io.recourse.interactive.TimerEntry#key()} keys, firing due entries as
 * {@link io.recourse.interactive.TimerFired}.
 */
package io.recourse.interactive;
