package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** How a route attempt ended, or why a candidate was passed over (DESIGN §7.4 RouteAttempt {@code outcome}). */
public enum AttemptOutcome implements WireName {
    LAUNCHED, RETRY_SCHEDULED, FAILED_PROVIDER_UNAVAILABLE, FAILED_OTHER, SKIPPED_DEGRADED, SKIPPED_USER_ACTION, SKIPPED_MAX_ATTEMPTS;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static AttemptOutcome fromWire(String wire) {
        return WireName.parse(AttemptOutcome.class, wire);
    }
}
