package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** The actions of a {@link SessionControl} on {@code recourse.session-controls} (DESIGN §6.4). */
public enum ControlAction implements WireName {
    CANCEL_RETRY, RETRY_NOW, START_FRESH, MODEL_CHANGED, PROFILE_CHANGED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static ControlAction fromWire(String wire) {
        return WireName.parse(ControlAction.class, wire);
    }
}
