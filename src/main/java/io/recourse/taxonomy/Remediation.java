package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

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
     * The remediation of {@code code} ({@link Code#remediation()}): one for every hard code,
     * {@code null} for every other code (transient ones are retried, outside and unclassified ones
     * are not provider policy) and for {@code null}.
     */
    public static Remediation of(Code code) {
        return code == null ? null : code.remediation();
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
