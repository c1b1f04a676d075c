package io.recourse.interactive;

import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Handling;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether a failed turn's classification authorizes an automatic interactive retry
 * (DESIGN §6.1, seed "Kanban interactive retry"). An exhaustive switch over the code's
 * {@link Handling}: adding a handling without deciding its Kanban policy does not compile; a new
 * code takes its handling's verdict. The chain conditions (current
 * generation, user prompt or a retry of the chain, known prompt digest) are checked by
 * {@link InteractiveRecoveryPolicy}; this class judges the classification and the evidence.
 */
public final class InteractiveEligibility {

    private InteractiveEligibility() {
    }

    /**
     * The verdict on one failed turn.
     *
     * @param reason {@code null} for {@code auto_retry}; otherwise the gate that failed
     */
    public record Verdict(Disposition disposition, RecoveryReason reason) {

        public Verdict {
            Objects.requireNonNull(disposition, "disposition");
        }

        static final Verdict AUTO = new Verdict(Disposition.AUTO_RETRY, null);

        static Verdict manual(RecoveryReason reason) {
            return new Verdict(Disposition.MANUAL, reason);
        }
    }

    /**
     * Judges a failed TurnOutcome at processing time {@code now}:
     * <ul>
     *   <li>{@code provider_transient} and {@code transport_lost} codes ({@code network_unavailable},
     *       {@code provider_overloaded}, {@code provider_unavailable}, {@code model_capacity},
     *       {@code agent_transport_lost}): {@code auto_retry} when confidence is
     *       {@code high}, the turn is replay-safe (no effect flag, or {@code resume_guarantee}) and the
     *       evidence is not stale; otherwise {@code manual} naming the failed gate;</li>
     *   <li>{@code throttle} codes ({@code rate_limited}): the same, and only with a validated {@code retry_after} at most
     *       {@code rateLimitHintMax} (60 s) after the terminal frame's {@code occurred_at};</li>
     *   <li>hard codes ({@code renewable_quota}, {@code user_action}): {@code manual} ({@code user_action_required}); no automatic replay;</li>
     *   <li>{@code outside} codes ({@code not_provider_failure}): {@code none} ({@code not_provider_failure}): the platform's
     *       existing terminal recovery owns them;</li>
     *   <li>unclassified codes ({@code unknown_provider_error}, {@code agent_runtime_error}): {@code manual}
     *       ({@code unclassified}); they fail closed.</li>
     * </ul>
     * Launch failures are judged like post-start ones (DESIGN §6.1: "a launch failure included").
     * Evidence is stale when {@code now − recordedAt > stalenessBound} (DESIGN §8); a missing
     * {@code recordedAt} counts as stale.
     *
     * @throws IllegalArgumentException when the outcome is not {@code failed}
     */
    public static Verdict assess(TurnOutcome outcome, Instant now, InteractiveConfig config) {
        if (outcome.outcome() != io.recourse.evidence.Outcome.FAILED) {
            throw new IllegalArgumentException("only a failed TurnOutcome is assessed, got " + outcome.outcome().wire());
        }
        Classification c = outcome.classification();
        if (c == null) {
            return Verdict.manual(RecoveryReason.UNCLASSIFIED);
        }
        return switch (c.code().handling()) {
            case PROVIDER_TRANSIENT, TRANSPORT_LOST -> transientGates(outcome, c, now, config, false);
            case THROTTLE -> transientGates(outcome, c, now, config, true);
            case RENEWABLE_QUOTA, USER_ACTION -> Verdict.manual(RecoveryReason.USER_ACTION_REQUIRED);
            case NOT_PROVIDER_FAILURE -> new Verdict(Disposition.NONE, RecoveryReason.NOT_PROVIDER_FAILURE);
            case UNCLASSIFIED_PRE_START, UNCLASSIFIED_POST_START -> Verdict.manual(RecoveryReason.UNCLASSIFIED);
        };
    }

    /** True when {@code now − recordedAt} exceeds the staleness bound (DESIGN §8). */
    public static boolean stale(TurnOutcome outcome, Instant now, InteractiveConfig config) {
        Instant recordedAt = outcome.recordedAt();
        return recordedAt == null || Duration.between(recordedAt, now).compareTo(config.stalenessBound()) > 0;
    }

    private static Verdict transientGates(TurnOutcome outcome, Classification c, Instant now,
                                          InteractiveConfig config, boolean needsShortHint) {
        if (c.confidence() != Confidence.HIGH) {
            return Verdict.manual(RecoveryReason.LOW_CONFIDENCE);
        }
        if (!outcome.replaySafe()) {
            return Verdict.manual(RecoveryReason.NOT_REPLAY_SAFE);
        }
        if (needsShortHint && !shortHint(outcome, c, config)) {
            return Verdict.manual(RecoveryReason.RATE_LIMIT_NOT_SHORT);
        }
        if (stale(outcome, now, config)) {
            return Verdict.manual(RecoveryReason.STALE_EVIDENCE);
        }
        return Verdict.AUTO;
    }

    /**
     * A validated {@code retry_after} no more than {@code rateLimitHintMax} after the terminal
     * frame's {@code occurred_at}: measured against the event time the hint was resolved from, so
     * the verdict does not depend on processing lag and is the same on reprocessing.
     */
    private static boolean shortHint(TurnOutcome outcome, Classification c, InteractiveConfig config) {
        Instant hint = c.retryAfter();
        if (hint == null || outcome.occurredAt() == null) {
            return false;
        }
        return Duration.between(outcome.occurredAt(), hint).compareTo(config.rateLimitHintMax()) <= 0;
    }
}
