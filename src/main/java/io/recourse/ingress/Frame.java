package io.recourse.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One parsed, validated frame of {@code recourse.agent-frames} (DESIGN §3). Optional fields are
 * {@code null} when absent. {@code payload} is the message as the gateway saw it: the JSON-RPC
 * message, {@code {line}}, {@code {code, signal}}, {@code {status, headers, body}} or
 * {@code {event, …}}; it is raw and unsanitized, so it never leaves the evidence stage. Its
 * decisive members are read with the record, its tree only on demand ({@link Payload}).
 *
 * @param sessionId          the platform's session id (may contain {@code /})
 * @param promptGeneration   ≥ 0; 0 carries protocol setup traffic and {@code session_stopped}
 * @param seq                the gateway's per-session sequence number
 * @param occurredAt         event time of the observation (UTC)
 * @param retryOfGeneration  on a retry: the failed generation it replaces
 * @param turnConfig         the turn configuration snapshot, or {@code null}
 */
public record Frame(
        String sessionId,
        int promptGeneration,
        long seq,
        Instant occurredAt,
        FrameSource source,
        Payload payload,
        String agentType,
        String providerId,
        String modelId,
        ProfileKind profileKind,
        String workspaceId,
        String runId,
        String executionProfileId,
        String taskId,
        String agentProfileId,
        Phase phase,
        PromptOrigin promptOrigin,
        String commandId,
        Integer retryOfGeneration,
        String promptDigest,
        JsonNode turnConfig,
        boolean resumeGuarantee) {

    /** The record key this frame belongs under: {@code <session_id>/<prompt_generation>}. */
    public String turnKey() {
        return sessionId + "/" + promptGeneration;
    }
}
