package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * Which path a failed turn takes (DESIGN §7.2 step 2, the code rules of §7.3), or {@code gate} when
 * a fixed gate decided before any code rule.
 */
public enum RoutePath implements WireName {
    /** Declined by a fixed gate (DESIGN §7.2 step 1). */
    GATE,
    /** Same-route short phase: high-confidence network/overload/unavailable/capacity, rate_limited with a hint ≤ 60 s. */
    SHORT,
    /** The route becomes ineligible at once: long rate limits, quota, auth, credentials, subscription, model, configuration. */
    LONG_HORIZON,
    /** Pre-start agent_transport_lost: same-candidate retries, then decline without degrading. */
    LAUNCH_TRANSPORT,
    /** Pre-start unknown_provider_error (or weak pre-start evidence): may skip to the next candidate without degrading. */
    LAUNCH_UNKNOWN,
    /** Not routing's to own: decline. */
    DECLINE;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
