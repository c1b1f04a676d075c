package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * Why routing put a run where it is (DESIGN §7.3): the {@code reason} of a RunState, a RouteCommand
 * and a ParkedRun, besides the failure's {@link io.recourse.taxonomy.Code}, the {@link RoutePath} of a
 * retry or skip and a dispatcher's {@link io.recourse.taxonomy.DispatchAckReason}, which travel under
 * their own wire names. {@link #wire()} is the value on the wire.
 */
public enum RunReason implements WireName {
    // --- what started a dispatch
    /** The first route of a run request. */
    LAUNCH,
    /** A scheduled same-route command fell due. */
    RETRY_DUE,
    /** A parked run's wake timer fired. */
    WAKE,
    /** The manual control {@code retry_now}. */
    RETRY_NOW,
    /** The manual control {@code try_next_now}. */
    TRY_NEXT_NOW,
    /** The cooldown owner's turn progressed or completed: its waiters are released. */
    COOLDOWN_RELEASED,
    /** The cooldown ended by its own expiry. */
    COOLDOWN_EXPIRED,
    /** The cooldown owner left the short phase without success: its waiters are re-evaluated. */
    COOLDOWN_OWNER_EXHAUSTED,
    /** The cooldown owner was declined: its waiters are re-evaluated. */
    COOLDOWN_OWNER_DECLINED,
    /** A same-route wait for a validated reset. */
    WAIT_FOR_RESET,
    // --- waiting and parking
    /** Waiting for another run's cooldown on the scope. */
    WAITING_FOR_COOLDOWN,
    /** Parked until a timed route becomes eligible. */
    WAITING_FOR_PROVIDER_CAPACITY,
    /** Parked without a timer: every route needs the user. */
    BLOCKED_PROVIDER_ACTION_REQUIRED,
    /** Parked after the cap on route attempts. */
    MAX_ROUTE_ATTEMPTS,
    /** A parked run's candidate that a new cycle can use at once. */
    ELIGIBLE_NEXT_CYCLE,
    // --- declines
    /** The run's profile has no validated route configuration. */
    NO_ROUTE_CONFIG,
    /** The manual control {@code cancel_wait}. */
    CANCELLED_BY_USER,
    /** No ack and no TurnStarted within the dispatch timeout. */
    DISPATCH_UNCONFIRMED,
    /** {@code on_exhausted: stop}. */
    POLICY_STOP,
    /** Gate: the code is outside the provider policy. */
    OUTSIDE_PROVIDER_POLICY,
    /** Gate: a post-start failure without a classification. */
    UNCLASSIFIED_POST_START,
    /** Gate: the agent transport was lost after the start. */
    TRANSPORT_LOST_POST_START,
    /** Gate: post-start evidence below {@code high}, or weak pre-start evidence. */
    LOW_CONFIDENCE,
    /** Gate: the evidence is older than the staleness bound. */
    STALE_EVIDENCE,
    /** Pre-start transport retries exhausted. */
    LAUNCH_TRANSPORT_LOST;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
