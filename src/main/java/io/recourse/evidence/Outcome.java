package io.recourse.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** How a turn closed (DESIGN §4, {@code TurnOutcome.outcome}). */
public enum Outcome implements WireName {
    COMPLETED, CANCELLED, FAILED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
