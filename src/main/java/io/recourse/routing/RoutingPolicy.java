package io.recourse.routing;

import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Handling;
import java.time.Duration;
import java.time.Instant;

/**
 * The Office class-policy evaluator (DESIGN §7.2) for a failed turn of a run, in the design's
 * order: gates → code rules → the candidate's class policy → effect safety. Pure: a function of
 * the outcome, the candidate, the run's budgets, {@code now} and the jitter source. {@code now}
 * only gates (staleness); every instant of a verdict ({@code due_at}, the hints) is anchored to
 * the outcome's {@code recorded_at} (DESIGN §8), so reprocessing the same outcome later gives the
 * same verdict. Gates that need
 * run state (stale generation, an unacked dispatch) and workspace rules (cooldowns, candidate
 * selection, parking) belong to {@link Router}.
 */
public final class RoutingPolicy {

    private final RoutingSettings settings;
    private final JitterSource jitter;

    public RoutingPolicy(RoutingSettings settings, JitterSource jitter) {
        this.settings = settings;
        this.jitter = jitter;
    }

    /**
     * What the run's budgets allow on its current candidate.
     *
     * @param runId          jitter key part
     * @param attempt        the failed route attempt (jitter key part)
     * @param retriesDone    same-route retries already scheduled on this candidate / scope
     * @param resetWaitUsed  the failed class's one reset wait of this route cycle is spent
     */
    public record Budget(String runId, int attempt, int retriesDone, boolean resetWaitUsed) {
    }

    /**
     * Evaluates one failed TurnOutcome.
     *
     * @param outcome   a {@code failed} outcome carrying its classification
     * @param candidate the candidate the turn ran on
     * @param now       processing time (UTC), for the staleness gate only
     * @throws IllegalArgumentException when the outcome has no classification
     */
    public Verdict evaluate(TurnOutcome outcome, Candidate candidate, Budget budget, Instant now) {
        Classification c = outcome.classification();
        if (c == null) {
            throw new IllegalArgumentException("failed outcome without classification");
        }
        boolean preStart = outcome.launch();
        Code code = c.code();
        // 1. Gates (fixed).
        if (code.errorClass() == ErrorClass.OUTSIDE) {
            return Verdict.decline(RoutePath.GATE, RunReason.OUTSIDE_PROVIDER_POLICY);
        }
        if (!preStart && code.errorClass() == ErrorClass.UNCLASSIFIED) {
            return Verdict.decline(RoutePath.GATE, RunReason.UNCLASSIFIED_POST_START);
        }
        if (!preStart && code.handling() == Handling.TRANSPORT_LOST) {
            return Verdict.decline(RoutePath.GATE, RunReason.TRANSPORT_LOST_POST_START);
        }
        if (!preStart && c.confidence() != Confidence.HIGH) {
            return Verdict.decline(RoutePath.GATE, RunReason.LOW_CONFIDENCE);
        }
        if (outcome.recordedAt() == null // evidence of unknown age fails closed, as in the interactive owner
                || Duration.between(outcome.recordedAt(), now).compareTo(settings.stalenessBound()) > 0) {
            return Verdict.decline(RoutePath.GATE, RunReason.STALE_EVIDENCE);
        }
        // 2. Code rules.
        RoutePath path = preStart && c.confidence() != Confidence.HIGH && code.handling() != Handling.UNCLASSIFIED_POST_START
                ? RoutePath.LAUNCH_UNKNOWN // weak launch evidence never degrades health or retries
                : pathOf(code, preStart, c, outcome.occurredAt());
        // 3. Class policy, 4. effect safety. Every instant is anchored to the record time, so a
        // replay after a crash decides the same instants (DESIGN §8).
        Instant anchor = outcome.recordedAt();
        Instant retryAfter = onRecordClock(c.retryAfter(), outcome);
        Instant resetAt = onRecordClock(c.resetAt(), outcome);
        RouteAction sameRoute = outcome.replaySafe() ? RouteAction.RETRY_SAME_ROUTE : RouteAction.FRESH_SESSION_CONTINUATION;
        Instant hint = resetAt != null ? resetAt : retryAfter;
        return switch (path) {
            case GATE, DECLINE -> Verdict.decline(path, code);
            case LAUNCH_UNKNOWN -> new Verdict(Verdict.Kind.SKIP, path, null, null, 0, 0, Verdict.HealthEffect.NONE,
                    null, c.confidence() == Confidence.HIGH ? code : RunReason.LOW_CONFIDENCE);
            case LAUNCH_TRANSPORT -> {
                RetryPolicy r = candidate.policies().transientPolicy().retry();
                if (budget.retriesDone() < r.budget()) {
                    yield retry(path, sameRoute, r, budget, retryAfter, Verdict.HealthEffect.NONE, anchor);
                }
                yield Verdict.decline(path, RunReason.LAUNCH_TRANSPORT_LOST);
            }
            case SHORT -> {
                ClassPolicy p = candidate.policies().transientPolicy();
                if (budget.retriesDone() < p.retry().budget()) {
                    yield retry(path, sameRoute, p.retry(), budget, retryAfter, Verdict.HealthEffect.SHORT_RETRY, anchor);
                }
                yield exhausted(path, p, budget, hint, sameRoute, Verdict.HealthEffect.DEGRADE, anchor);
            }
            case LONG_HORIZON -> {
                ClassPolicy p = candidate.policies().of(code.errorClass());
                if (userActionRequired(code)) {
                    // user_action_required codes never retry or wait
                    yield exhaustedVerdict(path, p, Verdict.HealthEffect.USER_ACTION, null);
                }
                yield exhausted(path, p, budget, hint, sameRoute, Verdict.HealthEffect.DEGRADE, anchor);
            }
        };
    }

    /**
     * The code rule of DESIGN §7.3 for {@code code}: an exhaustive switch over the code's
     * {@link Handling}, so a new handling does not compile until it has a path (a new code of an
     * existing handling takes that handling's path).
     */
    public RoutePath pathOf(Code code, boolean preStart, Classification c, Instant occurredAt) {
        return switch (code.handling()) {
            case PROVIDER_TRANSIENT -> RoutePath.SHORT;
            case THROTTLE -> shortHint(c, occurredAt) ? RoutePath.SHORT : RoutePath.LONG_HORIZON;
            case TRANSPORT_LOST -> preStart ? RoutePath.LAUNCH_TRANSPORT : RoutePath.DECLINE;
            case RENEWABLE_QUOTA, USER_ACTION -> RoutePath.LONG_HORIZON;
            case NOT_PROVIDER_FAILURE -> RoutePath.DECLINE;
            case UNCLASSIFIED_PRE_START -> preStart ? RoutePath.LAUNCH_UNKNOWN : RoutePath.DECLINE;
            case UNCLASSIFIED_POST_START -> RoutePath.DECLINE;
        };
    }

    /**
     * True for the codes that make a route {@code user_action_required} (no timer, no retry, no
     * wait): those of handling {@link Handling#USER_ACTION}.
     */
    public static boolean userActionRequired(Code code) {
        return switch (code.handling()) {
            case USER_ACTION -> true;
            case PROVIDER_TRANSIENT, THROTTLE, TRANSPORT_LOST, RENEWABLE_QUOTA, NOT_PROVIDER_FAILURE,
                    UNCLASSIFIED_PRE_START, UNCLASSIFIED_POST_START -> false;
        };
    }

    private boolean shortHint(Classification c, Instant occurredAt) {
        return c.retryAfter() != null && occurredAt != null
                && Duration.between(occurredAt, c.retryAfter()).compareTo(settings.shortHintMax()) <= 0;
    }

    /** A same-route retry due at {@code anchor} + its delay; {@code retryAfter} is already on the record clock. */
    private Verdict retry(RoutePath path, RouteAction action, RetryPolicy r, Budget budget, Instant retryAfter,
            Verdict.HealthEffect health, Instant anchor) {
        int ordinal = budget.retriesDone() + 1;
        Instant due = anchor.plus(delay(r, budget.runId(), budget.attempt(), ordinal, retryAfter, anchor));
        return new Verdict(Verdict.Kind.RETRY, path, action, due, ordinal, r.budget(), health, retryAfter, path);
    }

    /**
     * A classifier hint on the record clock (DESIGN §8): hints are resolved against the carrying
     * frame's {@code occurred_at} (the gateway's clock), so the hint's distance from the turn's
     * {@code occurred_at} is applied to its {@code recorded_at}. A gateway clock skewed by minutes
     * then neither stretches nor cancels a hint. Without {@code occurred_at} the hint is taken as is.
     */
    static Instant onRecordClock(Instant hint, TurnOutcome outcome) {
        if (hint == null || outcome.occurredAt() == null || outcome.recordedAt() == null) {
            return hint;
        }
        return outcome.recordedAt().plus(Duration.between(outcome.occurredAt(), hint));
    }

    private Verdict exhausted(RoutePath path, ClassPolicy p, Budget budget, Instant hint, RouteAction action,
            Verdict.HealthEffect health, Instant anchor) {
        WaitForReset w = p.waitForReset();
        if (w.enabled() && !budget.resetWaitUsed() && hint != null && hint.isAfter(anchor)
                && Duration.between(anchor, hint).getSeconds() <= w.maxWaitSeconds()) {
            return new Verdict(Verdict.Kind.WAIT_FOR_RESET, path, action, hint, 0, p.retry().budget(), health, hint,
                    RunReason.WAIT_FOR_RESET);
        }
        return exhaustedVerdict(path, p, health, hint);
    }

    private static Verdict exhaustedVerdict(RoutePath path, ClassPolicy p, Verdict.HealthEffect health, Instant hint) {
        return p.onExhausted() == OnExhausted.STOP
                ? new Verdict(Verdict.Kind.STOP, path, RouteAction.DECLINE, null, 0, p.retry().budget(), health, hint, RunReason.POLICY_STOP)
                : new Verdict(Verdict.Kind.SKIP, path, null, null, 0, p.retry().budget(), health, hint, path);
    }

    /**
     * The Office delay of same-route retry {@code ordinal} (1-based): max(initial × 2^(ordinal−1)
     * jittered ±20 % per (run, attempt, ordinal), validated {@code retry_after} − {@code now}), capped at
     * 24 h; {@code now} is the instant the delay runs from (the failing turn's record time).
     */
    public Duration delay(RetryPolicy r, String runId, int attempt, int ordinal, Instant retryAfter, Instant now) {
        double nominalMs = r.initialIntervalSeconds() * 1000.0 * Math.pow(2, ordinal - 1);
        double factor = 1.0 + settings.retryJitter() * jitter.unit("retry|" + runId + "|" + attempt + "|" + ordinal);
        long ms = Math.min(Math.round(nominalMs * factor), settings.maxDelay().toMillis());
        Duration d = Duration.ofMillis(Math.max(ms, 1));
        if (retryAfter != null && retryAfter.isAfter(now.plus(d))) {
            d = Duration.between(now, retryAfter);
        }
        return d.compareTo(settings.maxDelay()) > 0 ? settings.maxDelay() : d;
    }
}
