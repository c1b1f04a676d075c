package io.recourse.taxonomy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How the policy owners handle a semantic code (DESIGN §5.1 "handling", §6.1, §7.3): the closed
 * attribute every {@link Code} declares with its constant. The owners' decision tables (the
 * interactive eligibility, the Office code rules, the catalogue score's policy groups) switch
 * exhaustively on this type, not on {@link Code}: a new code of an existing handling needs only its
 * declaration and its catalogue rules, while a new handling does not compile until every owner
 * has decided it. Each handling belongs to exactly one {@link ErrorClass}.
 */
public enum Handling implements WireName {
    /** Short provider trouble (network, overload, outage, model capacity): retried with backoff. */
    PROVIDER_TRANSIENT(ErrorClass.TRANSIENT),
    /** A throttle (429): short only with a validated {@code retry_after} hint, else long-horizon. */
    THROTTLE(ErrorClass.TRANSIENT),
    /**
     * The agent's transport died: interactively retried like provider trouble; for a run, a
     * pre-start loss restarts the agent on the same route and a post-start one is declined.
     */
    TRANSPORT_LOST(ErrorClass.TRANSIENT),
    /** A renewable allowance is exhausted: wait for its reset (a run), never an automatic replay. */
    RENEWABLE_QUOTA(ErrorClass.HARD),
    /** Login, credentials, billing, model access or installation: the user must act; no retry, no wait. */
    USER_ACTION(ErrorClass.HARD),
    /** The task, the repository, the request or the user failed, not the provider: no owner acts. */
    NOT_PROVIDER_FAILURE(ErrorClass.OUTSIDE),
    /** Nothing matched before the agent started (launch failures): fails closed; a run skips the route. */
    UNCLASSIFIED_PRE_START(ErrorClass.UNCLASSIFIED),
    /** Nothing matched after the agent started: fails closed in every phase. */
    UNCLASSIFIED_POST_START(ErrorClass.UNCLASSIFIED);

    private final ErrorClass errorClass;

    Handling(ErrorClass errorClass) {
        this.errorClass = errorClass;
    }

    /** The class every code of this handling has (DESIGN §5.1). */
    public ErrorClass errorClass() {
        return errorClass;
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
