package io.recourse.interactive;

import io.recourse.evidence.TurnStarted;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Instant;

/**
 * The interactive owner's rules for a {@link SessionControl} and a dispatcher's
 * {@link InteractiveDispatchAck} (DESIGN §6.3): cancel, retry now, start fresh / model or profile
 * changed; a pending command confirmed, failed, superseded or dispatched late.
 */
final class ControlRules {

    private final RecoveryDraft.Env env;

    ControlRules(RecoveryDraft.Env env) {
        this.env = env;
    }

    RecoveryDecision onControl(SessionState state, SessionControl control, Instant now, Instant at) {
        if (state == null) {
            return RecoveryDecision.unchanged(null);
        }
        Integer expected = control.expectedGeneration();
        if (expected != null && expected < state.highestGeneration()) {
            return RecoveryDecision.unchanged(state); // a control for an older generation
        }
        RecoveryDraft d = env.draft(state, now, at);
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
                d.chain = RecoveryDraft.withRetryAt(d.chain, now);
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
        d.touch();
        return d.finish();
    }

    RecoveryDecision onAck(SessionState state, InteractiveDispatchAck ack, Instant now, Instant at) {
        if (state == null || state.chain() == null || !ack.commandId().equals(state.chain().pendingCommandId())) {
            return RecoveryDecision.unchanged(state); // not the pending command: an old attempt's or another owner's
        }
        RecoveryDraft d = env.draft(state, now, at);
        if (ack.status() == AckStatus.DISPATCHED) {
            if (d.status == RecoveryStatus.DISPATCHING) {
                d.confirm(ack.promptGeneration());
            } else if (d.status == RecoveryStatus.AWAITING_OUTCOME && d.chain.retryGeneration() == null
                    && ack.promptGeneration() != null) {
                d.chain = RecoveryDraft.withRetryGeneration(d.chain, ack.promptGeneration());
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
        d.touch();
        return d.finish();
    }
}
