package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.WireName;

/** A dispatcher's answer to a RouteCommand (DESIGN §7.3 OfficeDispatchAck {@code status}). */
public enum AckStatus implements WireName {
    DISPATCHED, FAILED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static AckStatus fromWire(String wire) {
        return WireName.parse(AckStatus.class, wire);
    }
}
