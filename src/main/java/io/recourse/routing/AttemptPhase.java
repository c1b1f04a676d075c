package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** Whether a failure happened before the turn's {@code session/prompt} request (a launch failure) or after it. */
public enum AttemptPhase implements WireName {
    PRE_START, POST_START;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static AttemptPhase fromWire(String wire) {
        return WireName.parse(AttemptPhase.class, wire);
    }
}
