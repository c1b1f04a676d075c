package io.recourse.ingress;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * Why an ingress frame was rejected (DESIGN §3). The wire name becomes the DLQ header
 * {@code recourse.error.code}.
 */
public enum DlqReason implements WireName {
    /** The value is not one JSON object (syntax error, trailing data, not an object, null value). */
    INVALID_JSON,
    /** A required field ({@code session_id}, {@code prompt_generation}, {@code seq}, {@code occurred_at},
     *  {@code source}, {@code payload}) is absent or null. */
    MISSING_FIELD,
    /**
     * A field is present but has the wrong type or an out-of-range / unknown value, or breaks a bound
     * of DESIGN §3 ({@link InputBounds}), e.g. {@code payload} or {@code turn_config} holds a number
     * out of range: an integer of more than {@value InputBounds#MAX_INTEGER_DIGITS} digits or a number
     * that is not a finite IEEE-754 double ({@code 1e400}).
     */
    INVALID_FIELD,
    /** The record key disagrees with {@code session_id} / {@code prompt_generation}. */
    KEY_MISMATCH,
    /** The raw value exceeds the size bound (default 256 KiB). */
    OVERSIZED,
    /** {@code profile_kind=dynamic} without {@code workspace_id}, {@code run_id} and {@code execution_profile_id}. */
    MISSING_ROUTING_IDENTITY,
    /** The record key is absent or not of the form {@code <session_id>/<prompt_generation>}. */
    INVALID_KEY;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
