package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How strongly the evidence supports a classification (DESIGN §5.2). Only {@code high}
 * authorizes automatic work; a classification resting only on background signals is at most
 * {@code medium}. Declared weakest first, so {@code compareTo} orders by strength.
 */
public enum Confidence implements WireName {
    LOW, MEDIUM, HIGH;

    /** The weaker of this and {@code other}. */
    public Confidence atMost(Confidence other) {
        return compareTo(other) <= 0 ? this : other;
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
