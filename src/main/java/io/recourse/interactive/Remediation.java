package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.WireName;

/**
 * What the user can do about a hard failure Recourse never retries (DESIGN §6.5, RecoveryState
 * {@code remediation}): a closed vocabulary a UI renders as its own words.
 * <ul>
 *   <li>{@code wait_for_reset}: {@code quota_limited} — the quota comes back at {@code reset_at}
 *       when the provider said when;</li>
 *   <li>{@code reconnect}: {@code auth_required}, {@code missing_credentials} — sign in again or
 *       supply the credentials;</li>
 *   <li>{@code change_plan}: {@code subscription_required};</li>
 *   <li>{@code configure}: {@code model_unavailable}, {@code provider_not_configured} — pick another
 *       model or set the provider up.</li>
 * </ul>
 */
public enum Remediation implements WireName {
    WAIT_FOR_RESET, RECONNECT, CHANGE_PLAN, CONFIGURE;

    /**
     * The remediation of {@code code}: one for every hard code, {@code null} for every other code
     * (transient ones are retried, outside and unclassified ones are not provider policy) and for
     * {@code null}. An exhaustive switch: a new code does not compile without a decision.
     */
    public static Remediation of(Code code) {
        if (code == null) {
            return null;
        }
        return switch (code) {
            case QUOTA_LIMITED -> WAIT_FOR_RESET;
            case AUTH_REQUIRED, MISSING_CREDENTIALS -> RECONNECT;
            case SUBSCRIPTION_REQUIRED -> CHANGE_PLAN;
            case MODEL_UNAVAILABLE, PROVIDER_NOT_CONFIGURED -> CONFIGURE;
            case NETWORK_UNAVAILABLE, PROVIDER_OVERLOADED, PROVIDER_UNAVAILABLE, MODEL_CAPACITY, AGENT_TRANSPORT_LOST,
                    RATE_LIMITED, PERMISSION_DENIED_BY_USER, TASK_ERROR, REPO_ERROR, CONTEXT_WINDOW_EXCEEDED,
                    RESUME_CORRUPTED, INVALID_REQUEST, UNKNOWN_PROVIDER_ERROR, AGENT_RUNTIME_ERROR -> null;
        };
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static Remediation fromWire(String wire) {
        return WireName.parse(Remediation.class, wire);
    }
}
