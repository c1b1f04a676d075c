package io.recourse.ingress;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * The dispatch phase a frame was observed in (DESIGN §3, envelope field {@code phase}).
 * The first three are pre-start phases: a failure there, before the turn's
 * {@code session/prompt} request, is a launch failure (DESIGN §1).
 */
public enum Phase implements WireName {
    AUTH_CHECK(true), PROCESS_START(true), SESSION_INIT(true),
    PROMPT_SEND(false), STREAMING(false), TOOL_EXECUTION(false), SHUTDOWN(false);

    private final boolean preStart;

    Phase(boolean preStart) {
        this.preStart = preStart;
    }

    /** True for {@code auth_check}, {@code process_start} and {@code session_init}. */
    public boolean preStart() {
        return preStart;
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
