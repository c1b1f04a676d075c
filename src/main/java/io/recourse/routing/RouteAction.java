package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** What a RouteCommand asks the dispatcher to do (DESIGN §7.4): launch the run, re-drive the original prompt on the same route (only before effects), start a fresh provider-native session told to inspect durable task and worktree state, or decline (routing gives the run back to the platform's generic scheduler). */
public enum RouteAction implements WireName {
    LAUNCH, RETRY_SAME_ROUTE, FRESH_SESSION_CONTINUATION, DECLINE;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} on an unknown one. */
    public static RouteAction fromWire(String wire) {
        return WireName.parse(RouteAction.class, wire);
    }
}
