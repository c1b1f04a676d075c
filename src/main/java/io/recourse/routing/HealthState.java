package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * Provider health of one scope (DESIGN §7.3): {@code healthy}, {@code short_retry} (a same-route
 * cooldown is running), {@code degraded} (ineligible until {@code retry_at}),
 * {@code user_action_required} (no timer), {@code probe_allowed} (a degraded scope's
 * {@code retry_at} passed, or a short phase ended without evidence: eligible again, the ladder
 * step kept so the next failure climbs it).
 */
public enum HealthState implements WireName {
    HEALTHY, SHORT_RETRY, DEGRADED, USER_ACTION_REQUIRED, PROBE_ALLOWED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static HealthState fromWire(String wire) {
        return WireName.parse(HealthState.class, wire);
    }
}
