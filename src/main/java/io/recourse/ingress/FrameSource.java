package io.recourse.ingress;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** Where a frame was observed (DESIGN §3, envelope field {@code source}). */
public enum FrameSource implements WireName {
    ACP_REQUEST, ACP_UPDATE, ACP_RESPONSE, ACP_ERROR, STDERR, EXIT, HTTP, LIFECYCLE;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
