package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** A run's routing status (DESIGN §7.4 RunState {@code status}). {@code declined} and {@code finished} are terminal. */
public enum RunStatus implements WireName {
    ROUTING, RUNNING, SHORT_RETRY, WAITING_FOR_COOLDOWN, WAITING_FOR_PROVIDER_CAPACITY, BLOCKED_PROVIDER_ACTION_REQUIRED, DECLINED, FINISHED;

    /** True for {@code declined} and {@code finished}. */
    public boolean terminal() {
        return this == DECLINED || this == FINISHED;
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static RunStatus fromWire(String wire) {
        return WireName.parse(RunStatus.class, wire);
    }
}
