package io.recourse.interactive;

import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.interactive.SessionState.Chain;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The interactive (Kanban) recovery owner's brain (DESIGN §6): a pure function
 * {@code (session state, input, now) → RecoveryDecision} with the configuration and the jitter source
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
 */
public final class InteractiveRecoveryPolicy {

    private final InteractiveConfig config;
    private final JitterSource jitter;
    private final UnaryOperator<String> labelSanitizer;

    /**
     * @param labelSanitizer applied to provider and model ids before they are published as labels
     */
    public InteractiveRecoveryPolicy(InteractiveConfig config, JitterSource jitter, UnaryOperator<String> labelSanitizer) {
        this.config = Objects.requireNonNull(config, "config");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
        this.labelSanitizer = Objects.requireNonNull(labelSanitizer, "labelSanitizer");
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
     * Applies one input to the session's state.
     *
     * @param state the session's stored state, or {@code null} when the store has none
     * @param input an event, control, ack or due timer of that session
     * @param now   processing time (the injected wall clock, UTC); truncated to milliseconds
     * @return what to write; {@link RecoveryDecision#unchanged} for stale and irrelevant inputs
     * @throws IllegalArgumentException when {@code state} belongs to another session than {@code input}
     */
    public RecoveryDecision apply(SessionState state, InteractiveInput input, Instant now) {
        Objects.requireNonNull(input, "input");
        Instant t = Objects.requireNonNull(now, "now").truncatedTo(ChronoUnit.MILLIS);
        if (state != null && !state.sessionId().equals(input.sessionId())) {
            throw new IllegalArgumentException("state of session '" + state.sessionId()
                    + "' given an input of session '" + input.sessionId() + "'");
        }
        if (input instanceof InteractiveInput.Event e) {
            return onEvent(state, e.event(), t);
        } else if (input instanceof SessionControl c) {
            return onControl(state, c, t);
        } else if (input instanceof InteractiveDispatchAck a) {
            return onAck(state, a, t);
        } else if (input instanceof TimerFired f) {
            return onTimer(state, f, t);
        }
        throw new IllegalStateException("unreachable: " + input);
    }

    /** Same as {@code apply(state, InteractiveInput.of(event), now)}. */
    public RecoveryDecision apply(SessionState state, SessionEvent event, Instant now) {
        return apply(state, InteractiveInput.of(event), now);
    }

    // ---------------------------------------------------------------- session events

    private RecoveryDecision onEvent(SessionState state, SessionEvent event, Instant now) {
        if (event instanceof SessionStopped) {
            if (state == null || !state.armed()) {
                return RecoveryDecision.unchanged(state);
            }
            Draft d = new Draft(state, now);
            d.lastEventAt = now;
            d.disarm(RecoveryReason.SESSION_STOPPED);
            return d.finish();
        }
        int g = event.promptGeneration();
        if (state != null && g < state.highestGeneration()) {
            return RecoveryDecision.unchanged(state); // stale generation: compare numbers, never arrival order
        }
        Draft d = new Draft(state == null ? SessionState.initial(event.sessionId(), now) : state, now);
        d.created = state == null;
        d.lastEventAt = now;
        TurnContext ctx = context(event);
        boolean ours = d.isPendingRetry(ctx, g);
        if (g > d.highest) {
            if (!ours) {
                if (d.status.armed()) {
                    d.disarm(RecoveryReason.NEW_PROMPT);
                } else if (d.status != RecoveryStatus.NONE || d.code != null) {
                    d.clear();
                }
            }
            d.highest = g;
        }
        if (ours) {
            d.confirm(g);
        }
        if (event instanceof TurnStarted started) {
            if (g >= d.startedGeneration) {
                d.startedGeneration = g;
                d.startedPromptDigest = started.promptDigest();
                d.startedTurnConfigDigest = started.turnConfigDigest();
            }
        } else if (event instanceof TurnOutcome outcome) {
            onOutcome(d, outcome, ours);
        } else if (event instanceof TurnExpired) {
            if (g > d.lastOutcomeGeneration) {
                d.lastOutcomeGeneration = g;
                if (ours) {
                    d.terminal(RecoveryStatus.MANUAL, RecoveryReason.OUTCOME_UNKNOWN);
                }
            }
        } else if (!(event instanceof TurnProgressed)) {
            throw new IllegalStateException("unreachable: " + event);
        }
        return d.finish();
    }

    private void onOutcome(Draft d, TurnOutcome outcome, boolean ours) {
        int g = outcome.promptGeneration();
        if (g <= d.lastOutcomeGeneration) {
            return; // a turn closes once; a second outcome changes nothing
        }
        d.lastOutcomeGeneration = g;
        if (ours) {
            switch (outcome.outcome()) {
                case COMPLETED -> d.terminal(RecoveryStatus.DISARMED, RecoveryReason.RETRY_SUCCEEDED);
                case CANCELLED -> d.terminal(RecoveryStatus.DISARMED, RecoveryReason.TURN_CANCELLED);
                case FAILED -> {
                    InteractiveEligibility.Verdict verdict = InteractiveEligibility.assess(outcome, d.now, config);
                    d.showFailure(outcome);
                    Chain chain = d.chain;
                    if (verdict.disposition() != Disposition.AUTO_RETRY) {
                        d.terminal(settledStatus(verdict), verdict.reason());
                    } else if (chain.attempt() >= config.maxAttempts()) {
                        d.terminal(RecoveryStatus.EXHAUSTED, RecoveryReason.ATTEMPTS_EXHAUSTED);
                    } else {
                        d.schedule(chain.startGeneration(), chain.attempt() + 1, g, outcome, chain.promptDigest(),
                                chain.turnConfigDigest(), chain.agentProfileId(), chain.executionProfileId(), chain.modelId());
                    }
                }
            }
            return;
        }
        if (d.status.armed()) {
            return; // not the chain's generation and not later than it: nothing to decide
        }
        if (outcome.outcome() != io.recourse.evidence.Outcome.FAILED
                || outcome.context().profileKind() != ProfileKind.CONCRETE) {
            return; // dynamic profiles belong to the routing owner; successes need no recovery
        }
        InteractiveEligibility.Verdict verdict = InteractiveEligibility.assess(outcome, d.now, config);
        d.chain = null;
        d.showFailure(outcome);
        if (verdict.disposition() != Disposition.AUTO_RETRY) {
            d.status = settledStatus(verdict);
            d.reason = verdict.reason();
        } else if (outcome.context().promptOrigin() != PromptOrigin.USER) {
            d.status = RecoveryStatus.MANUAL;
            d.reason = RecoveryReason.NOT_USER_PROMPT;
        } else if (d.startedGeneration != g || d.startedPromptDigest == null) {
            d.status = RecoveryStatus.MANUAL;
            d.reason = RecoveryReason.PROMPT_DIGEST_UNKNOWN;
        } else {
            TurnContext ctx = outcome.context();
            d.schedule(g, 1, g, outcome, d.startedPromptDigest, d.startedTurnConfigDigest,
                    ctx.agentProfileId(), ctx.executionProfileId(), ctx.modelId());
        }
    }

    private static RecoveryStatus settledStatus(InteractiveEligibility.Verdict verdict) {
        return verdict.disposition() == Disposition.MANUAL ? RecoveryStatus.MANUAL : RecoveryStatus.NONE;
    }

    private static TurnContext context(SessionEvent event) {
        if (event instanceof TurnStarted e) {
            return e.context();
        } else if (event instanceof TurnProgressed e) {
            return e.context();
        } else if (event instanceof TurnOutcome e) {
            return e.context();
        } else if (event instanceof TurnExpired e) {
            return e.context();
        } else if (event instanceof SessionStopped e) {
            return e.context();
        }
        throw new IllegalStateException("unreachable: " + event);
    }

    // ---------------------------------------------------------------- controls

    private RecoveryDecision onControl(SessionState state, SessionControl control, Instant now) {
        if (state == null) {
            return RecoveryDecision.unchanged(null);
        }
        Integer expected = control.expectedGeneration();
        if (expected != null && expected < state.highestGeneration()) {
            return RecoveryDecision.unchanged(state); // a control for an older generation
        }
        Draft d = new Draft(state, now);
        switch (control.action()) {
            case CANCEL_RETRY -> {
                if (!d.status.armed()) {
                    return RecoveryDecision.unchanged(state);
                }
                d.terminal(RecoveryStatus.CANCELLED, RecoveryReason.CANCEL_RETRY);
            }
            case RETRY_NOW -> {
                if (d.status != RecoveryStatus.SCHEDULED) {
                    return RecoveryDecision.unchanged(state);
                }
                d.cancel.add(new TimerEntry(InteractiveTimerKind.RETRY, d.chain.retryAt(), d.sessionId));
                d.chain = withRetryAt(d.chain, now);
                d.dispatch();
                d.reason = RecoveryReason.RETRY_NOW;
            }
            case START_FRESH, MODEL_CHANGED, PROFILE_CHANGED -> {
                if (!d.status.armed()) {
                    return RecoveryDecision.unchanged(state);
                }
                d.disarm(switch (control.action()) {
                    case START_FRESH -> RecoveryReason.START_FRESH;
                    case MODEL_CHANGED -> RecoveryReason.MODEL_CHANGED;
                    default -> RecoveryReason.PROFILE_CHANGED;
                });
            }
        }
        d.lastEventAt = now;
        return d.finish();
    }

    // ---------------------------------------------------------------- acks

    private RecoveryDecision onAck(SessionState state, InteractiveDispatchAck ack, Instant now) {
        if (state == null || state.chain() == null || !ack.commandId().equals(state.chain().pendingCommandId())) {
            return RecoveryDecision.unchanged(state); // not the pending command: an old attempt's or another owner's
        }
        Draft d = new Draft(state, now);
        if (ack.status() == AckStatus.DISPATCHED) {
            if (d.status == RecoveryStatus.DISPATCHING) {
                d.confirm(ack.promptGeneration());
            } else if (d.status == RecoveryStatus.AWAITING_OUTCOME && d.chain.retryGeneration() == null
                    && ack.promptGeneration() != null) {
                d.chain = withRetryGeneration(d.chain, ack.promptGeneration());
            } else if (d.status == RecoveryStatus.MANUAL && d.reason == RecoveryReason.DISPATCH_UNCONFIRMED) {
                d.reason = RecoveryReason.DISPATCHED_LATE;
            } else {
                return RecoveryDecision.unchanged(state);
            }
        } else {
            if (d.status != RecoveryStatus.DISPATCHING) {
                return RecoveryDecision.unchanged(state); // confirmed by its TurnStarted already, or no longer pending
            }
            d.terminal(RecoveryStatus.MANUAL, ack.reason() == DispatchAckReason.SUPERSEDED
                    ? RecoveryReason.SUPERSEDED : RecoveryReason.DISPATCH_FAILED);
        }
        d.lastEventAt = now;
        return d.finish();
    }

    // ---------------------------------------------------------------- timers

    private RecoveryDecision onTimer(SessionState state, TimerFired fired, Instant now) {
        if (state == null) {
            return RecoveryDecision.unchanged(null);
        }
        TimerEntry entry = fired.entry();
        Draft d = new Draft(state, now);
        switch (entry.kind()) {
            case RETRY -> {
                if (d.status != RecoveryStatus.SCHEDULED || !d.chain.retryAt().equals(entry.dueAt())
                        || now.isBefore(entry.dueAt())) {
                    return RecoveryDecision.unchanged(state); // a stale or early timer
                }
                if (state.highestGeneration() > d.chain.expectedGeneration()) {
                    d.status = RecoveryStatus.DISARMED; // a newer prompt was sent: never replay the old one
                    d.reason = RecoveryReason.NEW_PROMPT;
                } else if (Duration.between(entry.dueAt(), now).compareTo(config.stalenessBound()) > 0) {
                    d.status = RecoveryStatus.MANUAL; // the fired entry is gone already: nothing to cancel
                    d.reason = RecoveryReason.OVERDUE_AFTER_RESTART;
                } else {
                    d.dispatch();
                }
            }
            case DISPATCH_TIMEOUT -> {
                if (d.status != RecoveryStatus.DISPATCHING || !entry.dueAt().equals(d.chain.dispatchTimeoutAt())) {
                    return RecoveryDecision.unchanged(state);
                }
                Instant from = d.chain.issuedAt();
                if (fired.taskRunningSince() != null && fired.taskRunningSince().isAfter(from)) {
                    from = fired.taskRunningSince();
                }
                Instant deadline = from.plus(config.dispatchTimeout()).truncatedTo(ChronoUnit.MILLIS);
                if (now.isBefore(deadline)) {
                    d.chain = withDispatchTimeoutAt(d.chain, deadline);
                    d.arm.add(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, deadline, d.sessionId));
                } else {
                    d.chain = withDispatchTimeoutAt(d.chain, null);
                    d.status = RecoveryStatus.MANUAL;
                    d.reason = RecoveryReason.DISPATCH_UNCONFIRMED;
                }
            }
            case OUTCOME_TIMEOUT -> {
                if (d.status != RecoveryStatus.AWAITING_OUTCOME || !entry.dueAt().equals(outcomeDeadline(d.chain))
                        || now.isBefore(entry.dueAt())) {
                    return RecoveryDecision.unchanged(state); // answered, stale (another attempt's) or early
                }
                d.status = RecoveryStatus.MANUAL; // the fired entry is gone already: nothing to cancel
                d.reason = RecoveryReason.OUTCOME_TIMEOUT;
            }
            case SESSION_EXPIRY -> {
                Instant expiresAt = state.lastEventAt().plus(config.sessionTtl());
                if (!state.armed() && !now.isBefore(expiresAt)) {
                    return new RecoveryDecision(null, true, true, List.of(), null, List.of(), List.of());
                }
                Instant next = expiresAt.isAfter(now) ? expiresAt : now.plus(config.sessionTtl());
                return new RecoveryDecision(state, false, false, List.of(), null,
                        List.of(new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, next, state.sessionId())), List.of());
            }
        }
        return d.finish();
    }

    /** When an {@code awaiting_outcome} chain times out: its command's {@code issued_at} + the outcome timeout. */
    private Instant outcomeDeadline(Chain chain) {
        return chain.issuedAt() == null ? null : chain.issuedAt().plus(config.outcomeTimeout()).truncatedTo(ChronoUnit.MILLIS);
    }

    // ---------------------------------------------------------------- projection

    /** What a RecoveryState shows, without {@code updated_at}; {@code null} for an idle session. */
    private RecoveryState view(SessionState s, Instant updatedAt) {
        if (s == null || (s.status() == RecoveryStatus.NONE && s.code() == null)) {
            return null;
        }
        Chain chain = s.chain();
        return new RecoveryState(
                s.sessionId(),
                s.highestGeneration(),
                s.status(),
                s.code(),
                s.code() == null ? null : s.code().errorClass(),
                s.status().disposition(),
                chain == null ? 0 : chain.attempt(),
                config.maxAttempts(),
                chain != null && s.status().armed() ? chain.retryAt() : null,
                labelSanitizer.apply(s.providerId()),
                labelSanitizer.apply(s.modelId()),
                s.ruleId(),
                s.reason(),
                updatedAt);
    }

    private RecoveryState idle(SessionState s, Instant updatedAt) {
        return new RecoveryState(s.sessionId(), s.highestGeneration(), RecoveryStatus.NONE, null, null,
                Disposition.NONE, 0, config.maxAttempts(), null, null, null, null, null, updatedAt);
    }

    // ---------------------------------------------------------------- chain copies

    private static Chain withRetryAt(Chain c, Instant retryAt) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), retryAt,
                c.issuedAt(), c.dispatchTimeoutAt(), c.retryGeneration(), c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }

    private static Chain withDispatch(Chain c, Instant issuedAt, Instant timeoutAt) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), c.retryAt(),
                issuedAt, timeoutAt, c.retryGeneration(), c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }

    private static Chain withDispatchTimeoutAt(Chain c, Instant timeoutAt) {
        return withDispatch(c, c.issuedAt(), timeoutAt);
    }

    private static Chain withRetryGeneration(Chain c, Integer retryGeneration) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), c.retryAt(),
                c.issuedAt(), c.dispatchTimeoutAt(), retryGeneration, c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }

    /** The state being changed by one input, and the outputs collected on the way. */
    private final class Draft {
        final SessionState before;
        final Instant now;
        final String sessionId;
        boolean created;
        int highest;
        int lastOutcomeGeneration;
        Instant lastEventAt;
        RecoveryStatus status;
        RecoveryReason reason;
        Code code;
        String ruleId;
        String providerId;
        String modelId;
        int startedGeneration;
        String startedPromptDigest;
        String startedTurnConfigDigest;
        Chain chain;
        final List<RetryCommand> commands = new ArrayList<>();
        final List<TimerEntry> arm = new ArrayList<>();
        final List<TimerEntry> cancel = new ArrayList<>();

        Draft(SessionState s, Instant now) {
            this.before = s;
            this.now = now;
            this.sessionId = s.sessionId();
            this.highest = s.highestGeneration();
            this.lastOutcomeGeneration = s.lastOutcomeGeneration();
            this.lastEventAt = s.lastEventAt();
            this.status = s.status();
            this.reason = s.reason();
            this.code = s.code();
            this.ruleId = s.ruleId();
            this.providerId = s.providerId();
            this.modelId = s.modelId();
            this.startedGeneration = s.startedGeneration();
            this.startedPromptDigest = s.startedPromptDigest();
            this.startedTurnConfigDigest = s.startedTurnConfigDigest();
            this.chain = s.chain();
        }

        /** An event of generation g carries the pending command of a dispatched retry. */
        boolean isPendingRetry(TurnContext ctx, int g) {
            if (status != RecoveryStatus.DISPATCHING && status != RecoveryStatus.AWAITING_OUTCOME) {
                return false;
            }
            return ctx.commandId() != null
                    && ctx.commandId().equals(chain.pendingCommandId())
                    && (ctx.retryOfGeneration() == null || ctx.retryOfGeneration() == chain.expectedGeneration())
                    && (chain.retryGeneration() == null || chain.retryGeneration() == g)
                    && g > chain.expectedGeneration();
        }

        void showFailure(TurnOutcome outcome) {
            Classification c = outcome.classification();
            code = c == null ? null : c.code();
            ruleId = c == null ? null : c.ruleId();
            providerId = outcome.context().providerId();
            modelId = outcome.context().modelId();
        }

        void schedule(int startGeneration, int attempt, int expectedGeneration, TurnOutcome outcome,
                      String promptDigest, String turnConfigDigest,
                      String agentProfileId, String executionProfileId, String model) {
            if (status == RecoveryStatus.AWAITING_OUTCOME) {
                cancelChainTimers(); // the attempt that failed had its outcome timer
            }
            Classification c = outcome.classification();
            Instant retryAt = RetrySchedule.retryAt(config, jitter, sessionId, startGeneration, attempt, now,
                    c == null ? null : c.retryAfter());
            chain = new Chain(startGeneration, attempt, expectedGeneration,
                    CommandIds.retryCommandId(sessionId, startGeneration, attempt), retryAt, null, null, null,
                    promptDigest, turnConfigDigest, agentProfileId, executionProfileId, model);
            status = RecoveryStatus.SCHEDULED;
            reason = null;
            arm.add(new TimerEntry(InteractiveTimerKind.RETRY, retryAt, sessionId));
        }

        /** scheduled → dispatching: the attempt's one and only RetryCommand. */
        void dispatch() {
            Instant timeoutAt = now.plus(config.dispatchTimeout());
            chain = withDispatch(chain, now, timeoutAt);
            status = RecoveryStatus.DISPATCHING;
            reason = null;
            arm.add(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, timeoutAt, sessionId));
            commands.add(new RetryCommand(chain.pendingCommandId(), sessionId, chain.expectedGeneration(),
                    chain.startGeneration(), chain.attempt(), config.maxAttempts(), code, ruleId,
                    chain.promptDigest(), chain.turnConfigDigest(), chain.agentProfileId(),
                    chain.executionProfileId(), chain.modelId(), chain.retryAt(), now));
        }

        /** dispatching → awaiting_outcome (ack {@code dispatched} or an event carrying the command id). */
        void confirm(Integer retryGeneration) {
            if (status == RecoveryStatus.DISPATCHING) {
                cancelChainTimers();
                status = RecoveryStatus.AWAITING_OUTCOME;
                Instant deadline = outcomeDeadline(chain);
                if (deadline != null) {
                    arm.add(new TimerEntry(InteractiveTimerKind.OUTCOME_TIMEOUT, deadline, sessionId));
                }
            }
            if (chain.retryGeneration() == null && retryGeneration != null) {
                chain = withRetryGeneration(chain, retryGeneration);
            }
        }

        void disarm(RecoveryReason why) {
            if (status.armed()) {
                terminal(RecoveryStatus.DISARMED, why);
            }
        }

        void terminal(RecoveryStatus to, RecoveryReason why) {
            cancelChainTimers();
            status = to;
            reason = why;
        }

        /** A later generation makes an old terminal status irrelevant: back to idle. */
        void clear() {
            status = RecoveryStatus.NONE;
            reason = null;
            code = null;
            ruleId = null;
            providerId = null;
            modelId = null;
            chain = null;
        }

        private void cancelChainTimers() {
            if (status == RecoveryStatus.SCHEDULED) {
                cancel.add(new TimerEntry(InteractiveTimerKind.RETRY, chain.retryAt(), sessionId));
            } else if (status == RecoveryStatus.DISPATCHING && chain.dispatchTimeoutAt() != null) {
                cancel.add(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, chain.dispatchTimeoutAt(), sessionId));
                chain = withDispatchTimeoutAt(chain, null);
            } else if (status == RecoveryStatus.AWAITING_OUTCOME && outcomeDeadline(chain) != null) {
                cancel.add(new TimerEntry(InteractiveTimerKind.OUTCOME_TIMEOUT, outcomeDeadline(chain), sessionId));
            }
        }

        RecoveryDecision finish() {
            SessionState after = new SessionState(sessionId, highest, lastOutcomeGeneration, lastEventAt, status,
                    reason, code, ruleId, providerId, modelId, startedGeneration, startedPromptDigest,
                    startedTurnConfigDigest, chain);
            if (created) {
                arm.add(new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, now.plus(config.sessionTtl()), sessionId));
            }
            RecoveryState old = view(created ? null : before, Instant.EPOCH);
            RecoveryState neu = view(after, Instant.EPOCH);
            RecoveryState publish = null;
            if (!Objects.equals(old, neu)) {
                publish = neu == null ? idle(after, now) : view(after, now);
            }
            boolean changed = created || !after.equals(before);
            return new RecoveryDecision(after, changed, false, commands, publish, arm, cancel);
        }
    }
}
