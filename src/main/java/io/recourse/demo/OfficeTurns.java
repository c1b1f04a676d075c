package io.recourse.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.routing.CandidateRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of one dispatched Office turn (DESIGN §3 envelopes, {@code profile_kind=dynamic},
 * DESIGN §7.3): the {@code session/prompt} request, then the frames of how the turn ends, built from
 * the bundled samples ({@link InteractiveScenarios.Frames}). Shared by the routing demo's dispatcher
 * and the benchmark's.
 */
public final class OfficeTurns {

    /** How a dispatched turn ends, and the bundled sample its frames come from. */
    public enum End {
        /** Model capacity (transient): {@code codex_capacity_jsonrpc_error}. */
        CAPACITY("codex_capacity_jsonrpc_error"),
        /** Quota limited with a reset hint (hard): {@code codex_usage_limit_with_reset}. */
        QUOTA("codex_usage_limit_with_reset"),
        /** Auth expired (hard): {@code claude_oauth_token_expired}. */
        AUTH("claude_oauth_token_expired"),
        /** Completed: {@code claude_completed_with_tool}'s first chunk and {@code end_turn}. */
        SUCCESS("claude_completed_with_tool");

        private final String sample;

        End(String sample) {
            this.sample = sample;
        }

        /** The bundled sample the turn's frames are copied from. */
        public String sample() {
            return sample;
        }
    }

    private OfficeTurns() {
    }

    /**
     * The frames of generation {@code generation} of {@code sessionId}, in sending order (3 frames;
     * the last one terminal): consecutive {@code seq} from {@code firstSeq}, {@code occurred_at}
     * 1 ms apart from {@code at}, the run, workspace, task ({@code task-<runId>}) and candidate on
     * every frame.
     *
     * @param origin             {@code prompt_origin}: {@code scheduled}, {@code retry}, {@code continuation} or {@code user}
     * @param commandId          the RouteCommand the turn answers, or {@code null} (a user turn)
     * @param quotaResetSeconds  for {@link End#QUOTA}: {@code resets_in_seconds} of the HTTP error body (from the frame's time)
     */
    public static List<ObjectNode> frames(InteractiveScenarios.Frames samples, String runId, String workspaceId,
                                          String sessionId, int generation, long firstSeq, String origin, String commandId,
                                          CandidateRef candidate, End end, Instant at, int quotaResetSeconds) {
        String sample = end.sample();
        List<ObjectNode> turn = new ArrayList<>();
        ObjectNode prompt = samples.frame(sample, 0);
        prompt.put("prompt_origin", origin);
        if (commandId != null) {
            prompt.put("command_id", commandId);
        }
        if ("retry".equals(origin)) {
            prompt.put("retry_of_generation", generation - 1);
        }
        turn.add(prompt);
        switch (end) {
            case CAPACITY, AUTH -> {
                turn.add(samples.frame(sample, 1));
                turn.add(samples.frame(sample, 2));
            }
            case QUOTA -> {
                ObjectNode http = samples.frame(sample, 1);
                ((ObjectNode) http.get("payload").get("body").get("error")).put("resets_in_seconds", quotaResetSeconds);
                turn.add(http);
                turn.add(samples.frame(sample, 2));
            }
            case SUCCESS -> {
                turn.add(samples.frame(sample, 1)); // agent_message_chunk
                turn.add(samples.frame(sample, 6)); // end_turn
            }
        }
        for (int i = 0; i < turn.size(); i++) {
            ObjectNode f = turn.get(i);
            f.put("session_id", sessionId).put("prompt_generation", generation).put("seq", firstSeq + i)
                    .put("occurred_at", at.plusMillis(i).toString()).put("profile_kind", "dynamic")
                    .put("workspace_id", workspaceId).put("run_id", runId)
                    .put("task_id", "task-" + runId)
                    .put("execution_profile_id", candidate.executionProfileId())
                    .put("provider_id", candidate.providerId()).put("model_id", candidate.modelId());
            ObjectNode payload = (ObjectNode) f.get("payload");
            if (payload.has("jsonrpc") && payload.has("id")) {
                payload.put("id", 100 + generation);
            }
        }
        return turn;
    }
}
