package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.kit.TimerKind;
import io.recourse.taxonomy.WireName;

/**
 * What a time-index entry is for (DESIGN §8); {@link #code()} is the kind byte of the store key.
 * Run timers carry the run id, cooldown and health timers the scope's health key. Kind bytes are
 * stored in the time index: a new kind takes a new byte, never an existing one.
 */
public enum RoutingTimerKind implements WireName, TimerKind {
    /** A scheduled same-route command (short retry or reset wait) is due. */
    ROUTE_COMMAND_DUE((byte) 1),
    /** An issued command got neither ack nor TurnStarted in time. */
    DISPATCH_TIMEOUT((byte) 2),
    /** A scope's cooldown ends by itself (owner's last retry_at + dispatch timeout + 60 s). */
    COOLDOWN_EXPIRY((byte) 3),
    /** A parked run's wake. */
    PARKED_WAKE((byte) 4),
    /** A run's state ends 7 days after its last event (DESIGN §7). */
    RUN_EXPIRY((byte) 5),
    /** A degraded scope's {@code retry_at} (ladder step or validated reset): the scope becomes {@code probe_allowed}. */
    HEALTH_EXPIRY((byte) 6);

    private final byte code;

    RoutingTimerKind(byte code) {
        this.code = code;
    }

    /** The kind byte of the time-index key. */
    @Override
    public byte code() {
        return code;
    }

    /** The kind of a kind byte; throws {@link IllegalArgumentException} on an unknown one. */
    public static RoutingTimerKind ofCode(byte code) {
        return TimerKind.ofCode(RoutingTimerKind.class, code);
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
