package io.recourse.routing.streams;

/**
 * What the routing stage's input processors make of one JSON record (route configuration, run
 * requests, run controls, dispatch acks): an admitted value, or a rejected record carrying its
 * original key and value bytes for the DLQ, the error headers on the record (DESIGN §3, §7.1).
 * In-memory only: it lives between two processors of one sub-topology.
 *
 * @param <V> the admitted value type
 */
public sealed interface RoutingAdmission<V> {

    /** An admitted value (a {@code null} value is a tombstone to pass on). */
    record Admitted<V>(V value) implements RoutingAdmission<V> {
    }

    /** A rejected record. */
    record Rejected<V>(byte[] originalKey, byte[] originalValue) implements RoutingAdmission<V> {
    }
}
