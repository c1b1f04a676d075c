package io.recourse.evidence;

import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;

/**
 * Identity and dispatch facts of one turn, carried on every {@link SessionEvent} (DESIGN §4).
 * Taken from the turn's frames (the origin fields from its first {@code prompt_dispatched} or
 * {@code session/prompt} request frame); any field but the first two may be {@code null}.
 *
 * @param retryOfGeneration on a retry: the failed generation it replaces
 * @param commandId         the Recourse command this generation was dispatched for
 */
public record TurnContext(
        String sessionId,
        int promptGeneration,
        PromptOrigin promptOrigin,
        Integer retryOfGeneration,
        String commandId,
        ProfileKind profileKind,
        String agentType,
        String agentProfileId,
        String executionProfileId,
        String providerId,
        String modelId,
        String runId,
        String workspaceId,
        String taskId,
        boolean resumeGuarantee) {
}
