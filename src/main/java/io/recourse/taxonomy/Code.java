package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The stable, provider-neutral semantic codes of DESIGN §5.1, each declared with its
 * {@link Handling} (which fixes its class). The owners' decision tables switch on the handling,
 * so a new code of an existing handling needs only this declaration and its catalogue rules; the
 * owners' exhaustive tests enumerate every constant.
 */
public enum Code implements WireName {
    NETWORK_UNAVAILABLE(Handling.PROVIDER_TRANSIENT),
    PROVIDER_OVERLOADED(Handling.PROVIDER_TRANSIENT),
    PROVIDER_UNAVAILABLE(Handling.PROVIDER_TRANSIENT),
    MODEL_CAPACITY(Handling.PROVIDER_TRANSIENT),
    AGENT_TRANSPORT_LOST(Handling.TRANSPORT_LOST),
    RATE_LIMITED(Handling.THROTTLE),
    QUOTA_LIMITED(Handling.RENEWABLE_QUOTA),
    AUTH_REQUIRED(Handling.USER_ACTION),
    MISSING_CREDENTIALS(Handling.USER_ACTION),
    SUBSCRIPTION_REQUIRED(Handling.USER_ACTION),
    MODEL_UNAVAILABLE(Handling.USER_ACTION),
    PROVIDER_NOT_CONFIGURED(Handling.USER_ACTION),
    PERMISSION_DENIED_BY_USER(Handling.NOT_PROVIDER_FAILURE),
    TASK_ERROR(Handling.NOT_PROVIDER_FAILURE),
    REPO_ERROR(Handling.NOT_PROVIDER_FAILURE),
    CONTEXT_WINDOW_EXCEEDED(Handling.NOT_PROVIDER_FAILURE),
    RESUME_CORRUPTED(Handling.NOT_PROVIDER_FAILURE),
    INVALID_REQUEST(Handling.NOT_PROVIDER_FAILURE),
    UNKNOWN_PROVIDER_ERROR(Handling.UNCLASSIFIED_PRE_START),
    AGENT_RUNTIME_ERROR(Handling.UNCLASSIFIED_POST_START);

    private final Handling handling;

    Code(Handling handling) {
        this.handling = handling;
    }

    /** How the policy owners handle the code (DESIGN §5.1 "handling"). */
    public Handling handling() {
        return handling;
    }

    /** The code's class (DESIGN §5.1): its handling's class. */
    public ErrorClass errorClass() {
        return handling.errorClass();
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
