package io.recourse.ingress;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/** Why a generation was dispatched (DESIGN §3, envelope field {@code prompt_origin}). */
public enum PromptOrigin implements WireName {
    USER, RETRY, CONTINUATION, SCHEDULED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
