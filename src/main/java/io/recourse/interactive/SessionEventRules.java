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
import java.time.Instant;

/**
 * The interactive owner's rules for a {@link SessionEvent} (DESIGN §6.1, §6.3): staleness by
 * generation, chain start on a failed user turn, the retry generation's outcome, disarm on a new
 * prompt or a stopped session.
 */
final class SessionEventRules {

    private final RecoveryDraft.Env env;

    SessionEventRules(RecoveryDraft.Env env) {
        this.env = env;
    }

    RecoveryDecision onEvent(SessionState state, SessionEvent event, Instant now, Instant at) {
        if (event instanceof SessionStopped) {
            if (state == null || !state.armed()) {
                return RecoveryDecision.unchanged(state);
            }
            RecoveryDraft d = env.draft(state, now, at);
            d.touch();
            d.disarm(RecoveryReason.SESSION_STOPPED);
            return d.finish();
        }
        int g = event.promptGeneration();
        if (state != null && g < state.highestGeneration()) {
            return RecoveryDecision.unchanged(state); // stale generation: compare numbers, never arrival order
        }
        RecoveryDraft d = env.draft(state == null ? SessionState.initial(event.sessionId(), at) : state, now, at);
        d.created = state == null;
        d.touch();
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

    private void onOutcome(RecoveryDraft d, TurnOutcome outcome, boolean ours) {
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
                    InteractiveEligibility.Verdict verdict = InteractiveEligibility.assess(outcome, d.now, env.config());
                    d.showFailure(outcome);
                    Chain chain = d.chain;
                    if (verdict.disposition() != Disposition.AUTO_RETRY) {
                        d.terminal(settledStatus(verdict), verdict.reason());
                    } else if (chain.attempt() >= env.config().maxAttempts()) {
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
        InteractiveEligibility.Verdict verdict = InteractiveEligibility.assess(outcome, d.now, env.config());
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
}
