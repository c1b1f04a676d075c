package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * What a candidate's class policy does when its retries (and its one reset wait) are spent
 * (DESIGN §7.1–7.2): {@code skip} to the next candidate (or park when there is none), or
 * {@code stop} (RouteCommand {@code decline}, RunState {@code declined}, reason {@code policy_stop}).
 */
public enum OnExhausted implements WireName {
    SKIP, STOP;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses {@code skip} / {@code stop}; throws {@link IllegalArgumentException} otherwise. */
    @JsonCreator
    public static OnExhausted fromWire(String wire) {
        return WireName.parse(OnExhausted.class, wire);
    }
}
