package io.recourse.interactive;

import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.Objects;

/**
 * The interactive owner's durable state of one session (DESIGN §6.3): the value of its
 * changelogged key-value store, keyed by {@code session_id}. Small and flat (strings, ints,
 * instants, enums) so it maps one-to-one onto an Avro record.
 *
 * @param highestGeneration     the highest prompt generation seen in a SessionEvent; an event or
 *                              control for a lower one is stale (DESIGN §4: compare numbers, never
 *                              arrival order). 0 before any turn
 * @param lastOutcomeGeneration the highest generation whose TurnOutcome/TurnExpired was applied;
 *                              a second outcome for it is ignored
 * @param lastEventAt           record time (UTC) of the last applied event, control or ack (never
 *                              moving back; DESIGN §8);
 *                              the state expires {@code session ttl} (7 days) after it when no
 *                              chain is armed
 * @param status                {@link RecoveryStatus#NONE} when idle
 * @param reason                why, or {@code null}
 * @param code                  the failure shown (with {@code ruleId}), or {@code null}
 * @param providerId            provider of the failure shown (raw; sanitized when published)
 * @param modelId               model of the failure shown (raw; sanitized when published)
 * @param startedGeneration     generation of the latest TurnStarted applied (0 = none)
 * @param startedPromptDigest   its {@code prompt_digest}, or {@code null}
 * @param startedTurnConfigDigest its {@code turn_config_digest}, or {@code null}
 * @param chain                 the current or last chain, or {@code null}
 * @param resetAt               the validated quota reset of the failure shown, or {@code null}
 */
public record SessionState(
        String sessionId,
        int highestGeneration,
        int lastOutcomeGeneration,
        Instant lastEventAt,
        RecoveryStatus status,
        RecoveryReason reason,
        Code code,
        String ruleId,
        String providerId,
        String modelId,
        int startedGeneration,
        String startedPromptDigest,
        String startedTurnConfigDigest,
        Chain chain,
        Instant resetAt) {

    /** A state without a quota reset shown. */
    public SessionState(String sessionId, int highestGeneration, int lastOutcomeGeneration, Instant lastEventAt,
                        RecoveryStatus status, RecoveryReason reason, Code code, String ruleId, String providerId,
                        String modelId, int startedGeneration, String startedPromptDigest, String startedTurnConfigDigest,
                        Chain chain) {
        this(sessionId, highestGeneration, lastOutcomeGeneration, lastEventAt, status, reason, code, ruleId, providerId,
                modelId, startedGeneration, startedPromptDigest, startedTurnConfigDigest, chain, null);
    }

    public SessionState {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(lastEventAt, "lastEventAt");
        Objects.requireNonNull(status, "status");
        if (status.armed() && chain == null) {
            throw new IllegalArgumentException("status " + status.wire() + " needs a chain");
        }
    }

    /** A fresh, idle state for a session first seen at {@code now}. */
    public static SessionState initial(String sessionId, Instant now) {
        return new SessionState(sessionId, 0, 0, now, RecoveryStatus.NONE, null, null, null, null, null, 0, null, null, null);
    }

    /** True while a chain owns the session ({@code scheduled}, {@code dispatching}, {@code awaiting_outcome}). */
    public boolean armed() {
        return status.armed();
    }

    /**
     * A retry chain (DESIGN §6.3): attempts 1..max of re-dispatching the prompt of the user-prompt
     * generation {@code startGeneration}. Kept after the chain ends (terminal status) so a late ack
     * for its last command is still recognized.
     *
     * @param attempt            the attempt scheduled / dispatched / awaited (1..max)
     * @param expectedGeneration the failed generation the pending attempt replaces
     * @param pendingCommandId   command id of {@code attempt} (deterministic, known before dispatch)
     * @param retryAt            when {@code attempt} is (was) due (UTC, ms)
     * @param issuedAt           when its RetryCommand was written, or {@code null} while scheduled
     * @param dispatchTimeoutAt  the armed dispatch-timeout instant while {@code dispatching}, else {@code null}
     * @param retryGeneration    the generation the dispatch created, once known (ack or TurnStarted)
     */
    public record Chain(
            int startGeneration,
            int attempt,
            int expectedGeneration,
            String pendingCommandId,
            Instant retryAt,
            Instant issuedAt,
            Instant dispatchTimeoutAt,
            Integer retryGeneration,
            String promptDigest,
            String turnConfigDigest,
            String agentProfileId,
            String executionProfileId,
            String modelId) {

        public Chain {
            Objects.requireNonNull(pendingCommandId, "pendingCommandId");
            Objects.requireNonNull(retryAt, "retryAt");
            Objects.requireNonNull(promptDigest, "promptDigest");
        }
    }
}
