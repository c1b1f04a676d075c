package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * What the interactive owner does about a failed turn (DESIGN §6.5, RecoveryState
 * {@code disposition}): retry automatically, leave it to the user's manual recovery, or nothing
 * (not provider policy, or no failure).
 */
public enum Disposition implements WireName {
    AUTO_RETRY, MANUAL, NONE;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static Disposition fromWire(String wire) {
        return WireName.parse(Disposition.class, wire);
    }
}
