package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The stable, provider-neutral semantic codes of DESIGN §5.1, each with its class. Both policy
 * owners enumerate every constant in their exhaustive tests, so adding a code here without
 * deciding its policy fails the build.
 */
public enum Code implements WireName {
    NETWORK_UNAVAILABLE(ErrorClass.TRANSIENT),
    PROVIDER_OVERLOADED(ErrorClass.TRANSIENT),
    PROVIDER_UNAVAILABLE(ErrorClass.TRANSIENT),
    MODEL_CAPACITY(ErrorClass.TRANSIENT),
    AGENT_TRANSPORT_LOST(ErrorClass.TRANSIENT),
    RATE_LIMITED(ErrorClass.TRANSIENT),
    QUOTA_LIMITED(ErrorClass.HARD),
    AUTH_REQUIRED(ErrorClass.HARD),
    MISSING_CREDENTIALS(ErrorClass.HARD),
    SUBSCRIPTION_REQUIRED(ErrorClass.HARD),
    MODEL_UNAVAILABLE(ErrorClass.HARD),
    PROVIDER_NOT_CONFIGURED(ErrorClass.HARD),
    PERMISSION_DENIED_BY_USER(ErrorClass.OUTSIDE),
    TASK_ERROR(ErrorClass.OUTSIDE),
    REPO_ERROR(ErrorClass.OUTSIDE),
    CONTEXT_WINDOW_EXCEEDED(ErrorClass.OUTSIDE),
    RESUME_CORRUPTED(ErrorClass.OUTSIDE),
    INVALID_REQUEST(ErrorClass.OUTSIDE),
    UNKNOWN_PROVIDER_ERROR(ErrorClass.UNCLASSIFIED),
    AGENT_RUNTIME_ERROR(ErrorClass.UNCLASSIFIED);

    private final ErrorClass errorClass;

    Code(ErrorClass errorClass) {
        this.errorClass = errorClass;
    }

    /** The code's class (DESIGN §5.1). */
    public ErrorClass errorClass() {
        return errorClass;
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name such as {@code model_capacity}; throws on an unknown one. */
    public static Code fromWire(String wire) {
        return WireName.parse(Code.class, wire);
    }
}
