package io.recourse.interactive.streams;

/**
 * What the interactive processor forwards (DESIGN §6.5): a RetryCommand for
 * {@code recourse.kanban.retry-commands}, or a RecoveryState for the compacted
 * {@code recourse.kanban.recovery-state} ({@code null} = a tombstone: the session state expired).
 * In-memory only: it lives between the processor and the split in front of the two sinks.
 */
public sealed interface InteractiveOutput {

    /** A retry command, keyed by session id. */
    record Command(io.recourse.avro.RetryCommand command) implements InteractiveOutput {
    }

    /** The latest recovery state, or {@code null} for a tombstone. */
    record State(io.recourse.avro.RecoveryState state) implements InteractiveOutput {
    }
}
