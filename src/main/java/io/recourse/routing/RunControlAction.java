package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** A manual control of a run (DESIGN §7.3, {@code recourse.office.run-controls}): fire the pending retry or wake now, skip to the next candidate now, or give up ({@code declined}, {@code cancelled_by_user}). */
public enum RunControlAction implements WireName {
    RETRY_NOW, TRY_NEXT_NOW, CANCEL_WAIT;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static RunControlAction fromWire(String wire) {
        return WireName.parse(RunControlAction.class, wire);
    }
}
