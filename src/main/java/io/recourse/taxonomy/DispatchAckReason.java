package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why a dispatcher acked a command {@code failed}: the closed vocabulary of the {@code reason}
 * field of KanbanDispatchAck (DESIGN §6.3) and OfficeDispatchAck (DESIGN §7.3). A dispatcher's
 * free text never travels on: a reason outside this list is read as {@link #OTHER}, and the
 * optional {@code reason_detail} is sanitized and bounded where the ack is built (DESIGN §9).
 */
public enum DispatchAckReason implements WireName {
    /** The dispatcher could not dispatch the command (the default of a {@code failed} ack). */
    DISPATCH_FAILED,
    /** The command's {@code expected_generation} was no longer the session's latest. */
    SUPERSEDED,
    /** The agent process could not be started for the dispatch. */
    LAUNCH_FAILED,
    /** The command was cancelled before it was dispatched. */
    CANCELLED,
    /** Any other reason (the dispatcher's text is not kept). */
    OTHER;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /**
     * The reason a dispatcher wrote: {@code null} for {@code null}, blank or absent, the constant
     * whose wire name equals it, else {@link #OTHER}. Never throws: an unknown reason does not
     * cost the ack.
     */
    @JsonCreator
    public static DispatchAckReason fromInput(String wire) {
        if (wire == null || wire.isBlank()) {
            return null;
        }
        Object e = WireName.Lookup.BY_WIRE.get(DispatchAckReason.class).get(wire);
        return e == null ? OTHER : (DispatchAckReason) e;
    }
}
