package io.recourse.interactive;

import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.interactive.SessionState.Chain;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The interactive (Kanban) recovery owner's brain (DESIGN §6): a pure function
 * {@code (session state, input, now, record time) → RecoveryDecision} with the configuration and the jitter source
 * fixed at construction. No Kafka types, no I/O, no clock: the processor loads the state, calls
 * {@link #apply}, writes what the {@link RecoveryDecision} says in one transaction, and keeps the time
 * index.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Staleness</b> (DESIGN §4, §6.3): a SessionEvent of a generation below the highest seen
 *       for the session, a second outcome of a generation, a control whose
 *       {@code expected_generation} is below the highest, an ack for another than the pending
 *       {@code command_id} and a timer that does not match the state change nothing.</li>
 *   <li><b>Chain start</b> (§6.1, §6.3): a failed TurnOutcome of the current generation of a
 *       {@code concrete} profile whose prompt came from the user, judged {@code auto_retry} by
 *       {@link InteractiveEligibility}, with a known {@code prompt_digest}, schedules attempt 1
 *       ({@code scheduled}, a RETRY timer at {@code retry_at} from {@link RetrySchedule}).</li>
 *   <li><b>Dispatch</b>: the due RETRY timer (or {@code retry_now}) writes the RetryCommand and
 *       moves to {@code dispatching} with a DISPATCH_TIMEOUT timer; the {@code dispatched} ack or
 *       any SessionEvent carrying the pending {@code command_id} (and, if set,
 *       {@code retry_of_generation = expected_generation}) moves to {@code awaiting_outcome}. Ack
 *       {@code failed} → {@code manual} ({@code dispatch_failed}/{@code superseded}); the timeout
 *       at {@code max(issued_at, task RUNNING) + 30 s} → {@code manual}
 *       ({@code dispatch_unconfirmed}); a later {@code dispatched} ack → {@code manual}
 *       ({@code dispatched_late}); a RETRY timer overdue by more than the staleness bound →
 *       {@code manual} ({@code overdue_after_restart}). Commands are written only on the
 *       {@code scheduled → dispatching} transition, so never twice for one attempt.</li>
 *   <li><b>Outcome of the retry generation</b>: completed/cancelled → {@code disarmed}; failed and
 *       still {@code auto_retry} → next attempt ({@code expected_generation} = that generation),
 *       after the last one → {@code exhausted}; failed otherwise → {@code manual}/{@code none}
 *       with the classification shown; TurnExpired → {@code manual} ({@code outcome_unknown}); no
 *       outcome by {@code issued_at} + the outcome timeout (an OUTCOME_TIMEOUT timer armed on
 *       entering {@code awaiting_outcome}) → {@code manual} ({@code outcome_timeout}).</li>
 *   <li><b>Disarm</b>: a later generation without the pending command id ({@code new_prompt}),
 *       SessionStopped, controls {@code model_changed}, {@code profile_changed},
 *       {@code start_fresh}; {@code cancel_retry} → {@code cancelled}. A later generation also
 *       clears a terminal status to idle ({@code none}), so a UI drops an old banner.</li>
 *   <li><b>Expiry</b>: a SESSION_EXPIRY timer is armed when the state is created; when it fires
 *       the state expires if no chain is armed and {@code session ttl} has passed since the last
 *       applied event, otherwise it is re-armed.</li>
 * </ul>
 * A RecoveryState accompanies every change of what it shows ({@link RecoveryState}).
 *
 * <p>The parts: {@link SessionEventRules}, {@link ControlRules} (controls and acks),
 * {@link TimerRules}, and {@link RecoveryDraft} (one input's changes and the published view).
 */
public final class InteractiveRecoveryPolicy {

    private final InteractiveConfig config;
    private final SessionEventRules events;
    private final ControlRules controls;
    private final TimerRules timers;

    /**
     * @param labelSanitizer applied to provider and model ids before they are published as labels
     */
    public InteractiveRecoveryPolicy(InteractiveConfig config, JitterSource jitter, UnaryOperator<String> labelSanitizer) {
        this.config = Objects.requireNonNull(config, "config");
        RecoveryDraft.Env env = new RecoveryDraft.Env(config, Objects.requireNonNull(jitter, "jitter"),
                Objects.requireNonNull(labelSanitizer, "labelSanitizer"));
        this.events = new SessionEventRules(env);
        this.controls = new ControlRules(env);
        this.timers = new TimerRules(env);
    }

    /** With {@link Labels#sanitize} for labels. */
    public InteractiveRecoveryPolicy(InteractiveConfig config, JitterSource jitter) {
        this(config, jitter, Labels::sanitize);
    }

    /** Default configuration, hashed jitter, default labels. */
    public static InteractiveRecoveryPolicy defaults() {
        return new InteractiveRecoveryPolicy(InteractiveConfig.defaults(), JitterSource.hashed());
    }

    public InteractiveConfig config() {
        return config;
    }

    /**
     * Applies one input to the session's state, the input's record time being {@code now}
     * ({@code apply(state, input, now, now)}).
     */
    public RecoveryDecision apply(SessionState state, InteractiveInput input, Instant now) {
        return apply(state, input, now, now);
    }

    /**
     * Applies one input to the session's state (DESIGN §8). Processing time decides what is about
     * now: staleness, whether a timer is due, a dispatch's {@code issued_at}. What the change
     * publishes is derived from record times, so reprocessing the same records later gives the same
     * outputs: a {@code retry_at} counts from the failing turn's {@code recorded_at}, and
     * {@code updated_at} (and the state's last event instant) is the input's record time, clamped to
     * [now − staleness bound, now]; for a due timer it is {@code now}.
     *
     * @param state      the session's stored state, or {@code null} when the store has none
     * @param input      an event, control, ack or due timer of that session
     * @param now        processing time (the injected wall clock, UTC); truncated to milliseconds
     * @param recordTime the input record's timestamp on the same clock (ignored for a timer)
     * @return what to write; {@link RecoveryDecision#unchanged} for stale and irrelevant inputs
     * @throws IllegalArgumentException when {@code state} belongs to another session than {@code input}
     */
    public RecoveryDecision apply(SessionState state, InteractiveInput input, Instant now, Instant recordTime) {
        Objects.requireNonNull(input, "input");
        Instant t = Objects.requireNonNull(now, "now").truncatedTo(ChronoUnit.MILLIS);
        Instant at = publishedAt(Objects.requireNonNull(recordTime, "recordTime"), t);
        if (state != null && !state.sessionId().equals(input.sessionId())) {
            throw new IllegalArgumentException("state of session '" + state.sessionId()
                    + "' given an input of session '" + input.sessionId() + "'");
        }
        if (input instanceof InteractiveInput.Event e) {
            return events.onEvent(state, e.event(), t, at);
        } else if (input instanceof SessionControl c) {
            return controls.onControl(state, c, t, at);
        } else if (input instanceof InteractiveDispatchAck a) {
            return controls.onAck(state, a, t, at);
        } else if (input instanceof TimerFired f) {
            return timers.onTimer(state, f, t);
        }
        throw new IllegalStateException("unreachable: " + input);
    }

    /** {@code recordTime} clamped to [now − staleness bound, now], in milliseconds. */
    private Instant publishedAt(Instant recordTime, Instant now) {
        Instant r = recordTime.truncatedTo(ChronoUnit.MILLIS);
        Instant earliest = now.minus(config.stalenessBound());
        return r.isAfter(now) ? now : r.isBefore(earliest) ? earliest : r;
    }

    /** Same as {@code apply(state, InteractiveInput.of(event), now)}. */
    public RecoveryDecision apply(SessionState state, SessionEvent event, Instant now) {
        return apply(state, InteractiveInput.of(event), now);
    }
}
