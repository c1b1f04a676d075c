package io.recourse.interactive;

import io.recourse.taxonomy.Remediation;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import java.time.Instant;
import java.util.Objects;

/**
 * The latest interactive recovery state of a session, on the compacted
 * {@code recourse.kanban.recovery-state} keyed by {@code session_id} (DESIGN §6.5). Written with
 * every change of what it shows, in the same transaction as the state change, so a UI never shows
 * a countdown Recourse no longer owns. Clients render {@code retryAt} as is (never recompute it).
 *
 * @param generation   the highest prompt generation the owner has seen for the session; UIs send
 *                     it back as a control's {@code expected_generation}
 * @param code         the failure shown, or {@code null} when idle
 * @param errorClass   wire field {@code class}; {@code null} with {@code code}
 * @param attempt      the chain's current attempt (1..max), 0 without a chain
 * @param maxAttempts  the chain budget (5 by default)
 * @param retryAt      the exact UTC instant of the scheduled retry, or {@code null}
 * @param providerLabel sanitized provider id of the failed turn, or {@code null}
 * @param modelLabel   sanitized model id of the failed turn, or {@code null}
 * @param reason       why the status is what it is, or {@code null} (e.g. a plain {@code scheduled})
 * @param updatedAt    when the change happened (UTC): the record time of the input that caused it,
 *                     processing time for a timer (DESIGN §8)
 * @param resetAt      the validated quota reset of a {@code quota_limited} failure shown (the
 *                     classification's {@code reset_at}), or {@code null} when the provider named none
 * @param remediation  what the user can do about the hard failure shown ({@link Remediation#of}),
 *                     {@code null} for every other code and when idle
 */
public record RecoveryState(
        String sessionId,
        int generation,
        RecoveryStatus status,
        Code code,
        ErrorClass errorClass,
        Disposition disposition,
        int attempt,
        int maxAttempts,
        Instant retryAt,
        String providerLabel,
        String modelLabel,
        String ruleId,
        RecoveryReason reason,
        Instant updatedAt,
        Instant resetAt,
        Remediation remediation) {

    /** A state without reset or remediation (no hard failure shown). */
    public RecoveryState(String sessionId, int generation, RecoveryStatus status, Code code, ErrorClass errorClass,
                         Disposition disposition, int attempt, int maxAttempts, Instant retryAt, String providerLabel,
                         String modelLabel, String ruleId, RecoveryReason reason, Instant updatedAt) {
        this(sessionId, generation, status, code, errorClass, disposition, attempt, maxAttempts, retryAt, providerLabel,
                modelLabel, ruleId, reason, updatedAt, null, null);
    }

    public RecoveryState {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(disposition, "disposition");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
