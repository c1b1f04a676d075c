package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.kit.TimerKind;
import io.recourse.taxonomy.WireName;

/**
 * What an interactive timer is for (DESIGN §6.3, §8). {@link #code()} is the kind byte of a
 * {@link io.recourse.kit.TimeIndexKey}; at one instant, entries fire in kind order (retry, dispatch timeout, expiry,
 * outcome timeout).
 */
public enum InteractiveTimerKind implements WireName, TimerKind {
    /** A scheduled retry is due at the chain's {@code retry_at}. */
    RETRY((byte) 1),
    /** A {@code dispatching} retry is unconfirmed at {@code max(issued_at, task RUNNING) + dispatch timeout}. */
    DISPATCH_TIMEOUT((byte) 2),
    /** The session state may expire ({@code last event + session ttl}, DESIGN §6.3). */
    SESSION_EXPIRY((byte) 3),
    /** An {@code awaiting_outcome} retry has produced no outcome at {@code issued_at + outcome timeout}. */
    OUTCOME_TIMEOUT((byte) 4);

    private final byte code;

    InteractiveTimerKind(byte code) {
        this.code = code;
    }

    /** The kind byte stored in a {@link io.recourse.kit.TimeIndexKey}. */
    @Override
    public byte code() {
        return code;
    }

    /**
     * The kind of a stored kind byte.
     *
     * @throws IllegalArgumentException for an unknown byte
     */
    public static InteractiveTimerKind ofCode(byte code) {
        return TimerKind.ofCode(InteractiveTimerKind.class, code);
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
