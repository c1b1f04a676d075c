package io.recourse.interactive;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The interactive owner's rules for a due time-index entry (DESIGN §6.3, §8): the retry is
 * dispatched, a dispatch or an outcome times out, a session's state expires.
 */
final class TimerRules {

    private final RecoveryDraft.Env env;

    TimerRules(RecoveryDraft.Env env) {
        this.env = env;
    }

    RecoveryDecision onTimer(SessionState state, TimerFired fired, Instant now) {
        if (state == null) {
            return RecoveryDecision.unchanged(null);
        }
        TimerEntry entry = fired.entry();
        RecoveryDraft d = env.draft(state, now);
        switch (entry.kind()) {
            case RETRY -> {
                if (d.status != RecoveryStatus.SCHEDULED || !d.chain.retryAt().equals(entry.dueAt())
                        || now.isBefore(entry.dueAt())) {
                    return RecoveryDecision.unchanged(state); // a stale or early timer
                }
                if (state.highestGeneration() > d.chain.expectedGeneration()) {
                    d.status = RecoveryStatus.DISARMED; // a newer prompt was sent: never replay the old one
                    d.reason = RecoveryReason.NEW_PROMPT;
                } else if (Duration.between(entry.dueAt(), now).compareTo(env.config().stalenessBound()) > 0) {
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
                Instant deadline = from.plus(env.config().dispatchTimeout()).truncatedTo(ChronoUnit.MILLIS);
                if (now.isBefore(deadline)) {
                    d.chain = RecoveryDraft.withDispatchTimeoutAt(d.chain, deadline);
                    d.arm.add(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, deadline, d.sessionId));
                } else {
                    d.chain = RecoveryDraft.withDispatchTimeoutAt(d.chain, null);
                    d.status = RecoveryStatus.MANUAL;
                    d.reason = RecoveryReason.DISPATCH_UNCONFIRMED;
                }
            }
            case OUTCOME_TIMEOUT -> {
                if (d.status != RecoveryStatus.AWAITING_OUTCOME || !entry.dueAt().equals(env.outcomeDeadline(d.chain))
                        || now.isBefore(entry.dueAt())) {
                    return RecoveryDecision.unchanged(state); // answered, stale (another attempt's) or early
                }
                d.status = RecoveryStatus.MANUAL; // the fired entry is gone already: nothing to cancel
                d.reason = RecoveryReason.OUTCOME_TIMEOUT;
            }
            case SESSION_EXPIRY -> {
                Instant expiresAt = state.lastEventAt().plus(env.config().sessionTtl());
                if (!state.armed() && !now.isBefore(expiresAt)) {
                    return new RecoveryDecision(null, true, true, List.of(), null, List.of(), List.of());
                }
                Instant next = expiresAt.isAfter(now) ? expiresAt : now.plus(env.config().sessionTtl());
                return new RecoveryDecision(state, false, false, List.of(), null,
                        List.of(new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, next, state.sessionId())), List.of());
            }
        }
        return d.finish();
    }
}
