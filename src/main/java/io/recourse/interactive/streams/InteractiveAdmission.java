package io.recourse.interactive.streams;

/**
 * What {@link JsonInputProcessor} makes of one record of an interactive-owner input topic: an
 * admitted, validated value keyed by its {@code session_id}, or a rejected record carrying its
 * original key and value bytes for {@code recourse.dlq} (DESIGN §3 contract, DLQ headers on the
 * record). In-memory only (never serialized): it lives between two processors of one sub-topology.
 *
 * @param <T> the Avro value that continues to the repartition topic
 */
public sealed interface InteractiveAdmission<T> {

    /** A valid input, forwarded to the owner's repartition topic. */
    record Admitted<T>(T value) implements InteractiveAdmission<T> {
    }

    /** A rejected record; the DLQ headers travel on the record's headers. */
    record Rejected<T>(byte[] originalKey, byte[] originalValue) implements InteractiveAdmission<T> {
    }
}
