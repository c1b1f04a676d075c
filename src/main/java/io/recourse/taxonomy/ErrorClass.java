package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The policy class of a semantic code (DESIGN §5.1): {@code transient} may be retried,
 * {@code hard} needs a reset or the user, {@code outside} is not provider policy,
 * {@code unclassified} fails closed.
 */
public enum ErrorClass implements WireName {
    TRANSIENT, HARD, OUTSIDE, UNCLASSIFIED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
