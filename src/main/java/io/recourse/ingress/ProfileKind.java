package io.recourse.ingress;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * The agent profile kind that selects the policy owner (DESIGN §1): {@code concrete} → the
 * interactive owner, {@code dynamic} → the routing owner.
 */
public enum ProfileKind implements WireName {
    CONCRETE, DYNAMIC;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
