package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The stable, provider-neutral semantic codes of DESIGN §5.1, each declared with its
 * {@link Handling} (which fixes its class) and, for a hard code, its {@link Remediation}. The owners' decision tables switch on the handling,
 * so a new code of an existing handling needs only this declaration and its catalogue rules; the
 * owners' exhaustive tests enumerate every constant.
 */
public enum Code implements WireName {
    NETWORK_UNAVAILABLE(Handling.PROVIDER_TRANSIENT, null),
    PROVIDER_OVERLOADED(Handling.PROVIDER_TRANSIENT, null),
    PROVIDER_UNAVAILABLE(Handling.PROVIDER_TRANSIENT, null),
    MODEL_CAPACITY(Handling.PROVIDER_TRANSIENT, null),
    AGENT_TRANSPORT_LOST(Handling.TRANSPORT_LOST, null),
    RATE_LIMITED(Handling.THROTTLE, null),
    QUOTA_LIMITED(Handling.RENEWABLE_QUOTA, Remediation.WAIT_FOR_RESET),
    AUTH_REQUIRED(Handling.USER_ACTION, Remediation.RECONNECT),
    MISSING_CREDENTIALS(Handling.USER_ACTION, Remediation.RECONNECT),
    SUBSCRIPTION_REQUIRED(Handling.USER_ACTION, Remediation.CHANGE_PLAN),
    MODEL_UNAVAILABLE(Handling.USER_ACTION, Remediation.CONFIGURE),
    PROVIDER_NOT_CONFIGURED(Handling.USER_ACTION, Remediation.CONFIGURE),
    PERMISSION_DENIED_BY_USER(Handling.NOT_PROVIDER_FAILURE, null),
    TASK_ERROR(Handling.NOT_PROVIDER_FAILURE, null),
    REPO_ERROR(Handling.NOT_PROVIDER_FAILURE, null),
    CONTEXT_WINDOW_EXCEEDED(Handling.NOT_PROVIDER_FAILURE, null),
    RESUME_CORRUPTED(Handling.NOT_PROVIDER_FAILURE, null),
    INVALID_REQUEST(Handling.NOT_PROVIDER_FAILURE, null),
    UNKNOWN_PROVIDER_ERROR(Handling.UNCLASSIFIED_PRE_START, null),
    AGENT_RUNTIME_ERROR(Handling.UNCLASSIFIED_POST_START, null);

    private final Handling handling;
    private final Remediation remediation;

    Code(Handling handling, Remediation remediation) {
        this.handling = handling;
        this.remediation = remediation;
    }

    /**
     * What the user can do about it (DESIGN §6.5, RecoveryState {@code remediation}): set for
     * every code of {@link Handling#RENEWABLE_QUOTA} and {@link Handling#USER_ACTION}, {@code null}
     * for every other code.
     */
    public Remediation remediation() {
        return remediation;
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
