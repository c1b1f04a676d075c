package io.recourse.interactive;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * Why the interactive owner is in its current status (RecoveryState {@code reason}, DESIGN §6).
 * Manual-recovery reasons name the failed gate; disarm reasons name the trigger of DESIGN §6.3.
 */
public enum RecoveryReason implements WireName {
    /** Hard code (DESIGN §5.1 class {@code hard}): login, key, plan, model or configuration. */
    USER_ACTION_REQUIRED,
    /** {@code unknown_provider_error} / {@code agent_runtime_error}: fails closed. */
    UNCLASSIFIED,
    /** An {@code outside} code: not provider policy; disposition {@code none}. */
    NOT_PROVIDER_FAILURE,
    /** Transient, but confidence below {@code high}. */
    LOW_CONFIDENCE,
    /** Transient, but the turn had assistant output or tool activity and no resume guarantee. */
    NOT_REPLAY_SAFE,
    /** {@code rate_limited} without a validated {@code retry_after} at most 60 s away. */
    RATE_LIMIT_NOT_SHORT,
    /** The TurnOutcome was older than the staleness bound when processed (DESIGN §8). */
    STALE_EVIDENCE,
    /** The failed turn's prompt did not come from the user (continuation, scheduled, foreign retry). */
    NOT_USER_PROMPT,
    /** No {@code prompt_digest} known for the failed turn: the retry could not be verified by the dispatcher. */
    PROMPT_DIGEST_UNKNOWN,
    /** Dispatcher acked {@code failed}. */
    DISPATCH_FAILED,
    /** Dispatcher acked {@code failed}: {@code expected_generation} was no longer the latest. */
    SUPERSEDED,
    /** Neither ack nor TurnStarted within the dispatch timeout. */
    DISPATCH_UNCONFIRMED,
    /** A {@code dispatched} ack arrived after {@code dispatch_unconfirmed}. */
    DISPATCHED_LATE,
    /** A retry timer found overdue by more than the staleness bound (e.g. after a restart). */
    OVERDUE_AFTER_RESTART,
    /** The retry generation expired idle (TurnExpired): its outcome is unknown. */
    OUTCOME_UNKNOWN,
    /**
     * The retry was dispatched (acked or its TurnStarted seen) but no outcome of its generation
     * arrived within the outcome timeout (DESIGN §6.3).
     */
    OUTCOME_TIMEOUT,
    /** Five attempts failed. */
    ATTEMPTS_EXHAUSTED,
    /** The user cancelled the countdown ({@code cancel_retry}). */
    CANCEL_RETRY,
    /** The user asked to retry at once ({@code retry_now}). */
    RETRY_NOW,
    /** A later generation without the pending {@code command_id} (a new prompt, a continuation). */
    NEW_PROMPT,
    /** Control {@code model_changed}. */
    MODEL_CHANGED,
    /** Control {@code profile_changed}. */
    PROFILE_CHANGED,
    /** Control {@code start_fresh}. */
    START_FRESH,
    /** SessionStopped. */
    SESSION_STOPPED,
    /** The retry generation completed. */
    RETRY_SUCCEEDED,
    /** The retry generation was cancelled (stopReason {@code cancelled}). */
    TURN_CANCELLED;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }

    /** Parses a wire name; throws {@link IllegalArgumentException} naming an unknown one. */
    @JsonCreator
    public static RecoveryReason fromWire(String wire) {
        return WireName.parse(RecoveryReason.class, wire);
    }
}
