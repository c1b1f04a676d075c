package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A dispatcher's answer to a RetryCommand (DESIGN §6.3, InteractiveDispatchAck {@code status}). */
public enum AckStatus implements WireName {
    DISPATCHED, FAILED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static AckStatus fromWire(String wire) {
        return WireName.parse(AckStatus.class, wire);
    }
}
