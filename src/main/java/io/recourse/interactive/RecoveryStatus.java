package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * The interactive owner's status of a session (DESIGN §6.3, RecoveryState {@code status}).
 * {@code scheduled}, {@code dispatching} and {@code awaiting_outcome} are the <em>armed</em> states
 * of a chain; {@code exhausted}, {@code cancelled}, {@code disarmed} and {@code manual} are
 * terminal; {@code none} is idle (no recovery to show).
 */
public enum RecoveryStatus implements WireName {
    NONE, SCHEDULED, DISPATCHING, AWAITING_OUTCOME, EXHAUSTED, CANCELLED, DISARMED, MANUAL;

    /** True for {@code scheduled}, {@code dispatching} and {@code awaiting_outcome}: a chain owns the session. */
    public boolean armed() {
        return this == SCHEDULED || this == DISPATCHING || this == AWAITING_OUTCOME;
    }

    /**
     * The disposition a UI shows for this status: {@code auto_retry} while armed; {@code manual}
     * after {@code manual}, {@code exhausted} and {@code cancelled} (the user's Resume / Start fresh
     * path, seed "Kanban interactive retry"); {@code none} when idle or disarmed.
     */
    public Disposition disposition() {
        return switch (this) {
            case SCHEDULED, DISPATCHING, AWAITING_OUTCOME -> Disposition.AUTO_RETRY;
            case MANUAL, EXHAUSTED, CANCELLED -> Disposition.MANUAL;
            case NONE, DISARMED -> Disposition.NONE;
        };
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static RecoveryStatus fromWire(String wire) {
        return WireName.parse(RecoveryStatus.class, wire);
    }
}
