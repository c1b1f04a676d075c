package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What provider health and cooldowns attach to (DESIGN §1): the provider, or the provider's
 * model (e.g. {@code model_capacity}, {@code model_unavailable}).
 */
public enum Scope implements WireName {
    PROVIDER, MODEL;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
