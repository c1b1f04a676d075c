package io.recourse.interactive;

import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.interactive.SessionState.Chain;
import io.recourse.taxonomy.Remediation;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The session state being changed by one input of the interactive owner, and the outputs collected
 * on the way (DESIGN §6.3); {@link #finish()} makes the {@link RecoveryDecision}.
 */
final class RecoveryDraft {

    /** What every rule of the policy reads: its configuration, jitter source and label sanitizer. */
    record Env(InteractiveConfig config, JitterSource jitter, UnaryOperator<String> labelSanitizer) {

        /** A draft for a due timer: its changes happen at processing time. */
        RecoveryDraft draft(SessionState s, Instant now) {
            return new RecoveryDraft(this, s, now, now);
        }

        /** A draft for a record: processed at {@code now}, published at the record's time {@code at}. */
        RecoveryDraft draft(SessionState s, Instant now, Instant at) {
            return new RecoveryDraft(this, s, now, at);
        }

        /** When an {@code awaiting_outcome} chain times out: its command's {@code issued_at} + the outcome timeout. */
        Instant outcomeDeadline(Chain chain) {
            return chain.issuedAt() == null ? null : chain.issuedAt().plus(config.outcomeTimeout()).truncatedTo(ChronoUnit.MILLIS);
        }
    }

    private final Env env;
    final SessionState before;
    /** Processing time: staleness, dispatch. */
    final Instant now;
    /**
     * The instant the change is published at ({@code updated_at}, {@code last_event_at}): the input
     * record's time for a record, processing time for a timer (DESIGN §8).
     */
    final Instant at;
    final String sessionId;
    boolean created;
    int highest;
    int lastOutcomeGeneration;
    Instant lastEventAt;
    RecoveryStatus status;
    RecoveryReason reason;
    Code code;
    String ruleId;
    Instant resetAt;
    String providerId;
    String modelId;
    int startedGeneration;
    String startedPromptDigest;
    String startedTurnConfigDigest;
    Chain chain;
    final List<RetryCommand> commands = new ArrayList<>();
    final List<TimerEntry> arm = new ArrayList<>();
    final List<TimerEntry> cancel = new ArrayList<>();

    private RecoveryDraft(Env env, SessionState s, Instant now, Instant at) {
        this.env = env;
        this.before = s;
        this.now = now;
        this.at = at;
        this.sessionId = s.sessionId();
        this.highest = s.highestGeneration();
        this.lastOutcomeGeneration = s.lastOutcomeGeneration();
        this.lastEventAt = s.lastEventAt();
        this.status = s.status();
        this.reason = s.reason();
        this.code = s.code();
        this.ruleId = s.ruleId();
        this.resetAt = s.resetAt();
        this.providerId = s.providerId();
        this.modelId = s.modelId();
        this.startedGeneration = s.startedGeneration();
        this.startedPromptDigest = s.startedPromptDigest();
        this.startedTurnConfigDigest = s.startedTurnConfigDigest();
        this.chain = s.chain();
    }

    /** The session saw a record at {@link #at}: its last event instant moves there, never back. */
    void touch() {
        if (lastEventAt == null || at.isAfter(lastEventAt)) {
            lastEventAt = at;
        }
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
        resetAt = c == null || c.code() != Code.QUOTA_LIMITED ? null : c.resetAt();
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
        // anchored to the failing turn's record time, never later than now: the same failure gives
        // the same instant however late it is processed (DESIGN §6.2, §8); an eligible failure has one
        Instant anchor = outcome.recordedAt() == null || outcome.recordedAt().isAfter(now) ? now
                : outcome.recordedAt().truncatedTo(ChronoUnit.MILLIS);
        Instant retryAt = RetrySchedule.retryAt(env.config(), env.jitter(), sessionId, startGeneration, attempt, anchor,
                c == null ? null : c.retryAfter(), outcome.occurredAt());
        chain = new Chain(startGeneration, attempt, expectedGeneration,
                CommandIds.retryCommandId(sessionId, startGeneration, attempt), retryAt, null, null, null,
                promptDigest, turnConfigDigest, agentProfileId, executionProfileId, model);
        status = RecoveryStatus.SCHEDULED;
        reason = null;
        arm.add(new TimerEntry(InteractiveTimerKind.RETRY, retryAt, sessionId));
    }

    /** scheduled → dispatching: the attempt's one and only RetryCommand. */
    void dispatch() {
        Instant timeoutAt = now.plus(env.config().dispatchTimeout());
        chain = withDispatch(chain, now, timeoutAt);
        status = RecoveryStatus.DISPATCHING;
        reason = null;
        arm.add(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, timeoutAt, sessionId));
        commands.add(new RetryCommand(chain.pendingCommandId(), sessionId, chain.expectedGeneration(),
                chain.startGeneration(), chain.attempt(), env.config().maxAttempts(), code, ruleId,
                chain.promptDigest(), chain.turnConfigDigest(), chain.agentProfileId(),
                chain.executionProfileId(), chain.modelId(), chain.retryAt(), now));
    }

    /** dispatching → awaiting_outcome (ack {@code dispatched} or an event carrying the command id). */
    void confirm(Integer retryGeneration) {
        if (status == RecoveryStatus.DISPATCHING) {
            cancelChainTimers();
            status = RecoveryStatus.AWAITING_OUTCOME;
            Instant deadline = env.outcomeDeadline(chain);
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
        resetAt = null;
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
        } else if (status == RecoveryStatus.AWAITING_OUTCOME && env.outcomeDeadline(chain) != null) {
            cancel.add(new TimerEntry(InteractiveTimerKind.OUTCOME_TIMEOUT, env.outcomeDeadline(chain), sessionId));
        }
    }

    RecoveryDecision finish() {
        SessionState after = new SessionState(sessionId, highest, lastOutcomeGeneration, lastEventAt, status,
                reason, code, ruleId, providerId, modelId, startedGeneration, startedPromptDigest,
                startedTurnConfigDigest, chain, resetAt);
        if (created) {
            arm.add(new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, at.plus(env.config().sessionTtl()), sessionId));
        }
        RecoveryState old = view(created ? null : before, Instant.EPOCH);
        RecoveryState neu = view(after, Instant.EPOCH);
        RecoveryState publish = null;
        if (!Objects.equals(old, neu)) {
            publish = neu == null ? idle(after, at) : view(after, at);
        }
        boolean changed = created || !after.equals(before);
        return new RecoveryDecision(after, changed, false, commands, publish, arm, cancel);
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
                env.config().maxAttempts(),
                chain != null && s.status().armed() ? chain.retryAt() : null,
                env.labelSanitizer().apply(s.providerId()),
                env.labelSanitizer().apply(s.modelId()),
                s.ruleId(),
                s.reason(),
                updatedAt,
                s.resetAt(),
                Remediation.of(s.code()));
    }

    private RecoveryState idle(SessionState s, Instant updatedAt) {
        return new RecoveryState(s.sessionId(), s.highestGeneration(), RecoveryStatus.NONE, null, null,
                Disposition.NONE, 0, env.config().maxAttempts(), null, null, null, null, null, updatedAt);
    }

    // ---------------------------------------------------------------- chain copies

    static Chain withRetryAt(Chain c, Instant retryAt) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), retryAt,
                c.issuedAt(), c.dispatchTimeoutAt(), c.retryGeneration(), c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }

    static Chain withDispatch(Chain c, Instant issuedAt, Instant timeoutAt) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), c.retryAt(),
                issuedAt, timeoutAt, c.retryGeneration(), c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }

    static Chain withDispatchTimeoutAt(Chain c, Instant timeoutAt) {
        return withDispatch(c, c.issuedAt(), timeoutAt);
    }

    static Chain withRetryGeneration(Chain c, Integer retryGeneration) {
        return new Chain(c.startGeneration(), c.attempt(), c.expectedGeneration(), c.pendingCommandId(), c.retryAt(),
                c.issuedAt(), c.dispatchTimeoutAt(), retryGeneration, c.promptDigest(), c.turnConfigDigest(),
                c.agentProfileId(), c.executionProfileId(), c.modelId());
    }
}
