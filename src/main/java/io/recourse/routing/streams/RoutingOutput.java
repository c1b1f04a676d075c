package io.recourse.routing.streams;

import org.apache.avro.specific.SpecificRecord;

/**
 * One record the routing owner writes (DESIGN §7.4): which output topic, its key and its Avro
 * value ({@code null} = a tombstone on a compacted topic). In-memory only, between the owner
 * processor and its sinks; {@link RoutingRecords} makes them from a decision.
 *
 * @param key {@code run_id}, or the percent-encoded health key for {@link Kind#PROVIDER_HEALTH}
 */
public record RoutingOutput(Kind kind, String key, SpecificRecord value) {

    /** The output topic of a record. */
    public enum Kind {
        /** {@code recourse.office.route-commands} (delete). */
        ROUTE_COMMAND,
        /** {@code recourse.office.run-state} (compacted; tombstone when the run ends). */
        RUN_STATE,
        /** {@code recourse.office.route-attempts} (delete, append-only). */
        ROUTE_ATTEMPT,
        /** {@code recourse.office.provider-health} (compacted). */
        PROVIDER_HEALTH,
        /** {@code recourse.office.parked-runs} (compacted; tombstone on release). */
        PARKED_RUN
    }
}
