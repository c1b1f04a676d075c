package io.recourse.kit;

/**
 * What an admission step makes of one input record (DESIGN §3): an admitted value, or a rejected
 * record carrying its original key and value bytes for the DLQ, the error headers on the record
 * ({@link DeadLetters}). In-memory only (never serialized): it lives between the admission
 * processor and the DLQ split of one sub-topology ({@link Admissions}).
 *
 * @param <V> the admitted value type
 */
public sealed interface Admission<V> {

    /** An admitted value (a {@code null} value is a tombstone to pass on). */
    record Admitted<V>(V value) implements Admission<V> {
    }

    /** A rejected record; the DLQ headers travel on the record's headers. */
    record Rejected<V>(byte[] originalKey, byte[] originalValue) implements Admission<V> {
    }
}
