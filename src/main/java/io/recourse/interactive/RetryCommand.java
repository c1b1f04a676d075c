package io.recourse.interactive;

import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.Objects;

/**
 * "Re-dispatch the prompt of {@code expected_generation}": the interactive owner's command on
 * {@code recourse.kanban.retry-commands}, keyed by {@code session_id} (DESIGN §6.5). The prompt
 * itself never leaves the gateway/dispatcher; the dispatcher replays only when both digests match
 * what it holds, and acks {@code failed}/{@code superseded} when {@code expected_generation} is no
 * longer the session's latest.
 *
 * @param commandId            deterministic per (session, chain start, attempt): {@link CommandIds#retryCommandId}
 * @param expectedGeneration   the failed generation this retry replaces
 * @param chainStartGeneration the failed user-prompt generation that started the chain
 * @param attempt              1..{@code maxAttempts}
 * @param code                 the semantic code of the failure being retried
 * @param promptDigest         hex SHA-256 of the RFC 8785 {@code params.prompt} (DESIGN §6.5)
 * @param turnConfigDigest     hex SHA-256 of the RFC 8785 {@code turn_config}, or {@code null}
 * @param retryAt              the scheduled instant (UTC); {@code issuedAt} when fired by {@code retry_now}
 * @param issuedAt             processing time at which the command was written (UTC), ≥ {@code retryAt}
 */
public record RetryCommand(
        String commandId,
        String sessionId,
        int expectedGeneration,
        int chainStartGeneration,
        int attempt,
        int maxAttempts,
        Code code,
        String ruleId,
        String promptDigest,
        String turnConfigDigest,
        String agentProfileId,
        String executionProfileId,
        String modelId,
        Instant retryAt,
        Instant issuedAt) {

    public RetryCommand {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(promptDigest, "promptDigest");
        Objects.requireNonNull(retryAt, "retryAt");
        Objects.requireNonNull(issuedAt, "issuedAt");
    }
}
