package io.recourse.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The field bounds of a parsed frame (DESIGN §3, {@link InputBounds}), checked by
 * {@link FrameParser} once the fields have their types: {@link #check} for ids, names, the digest,
 * the JSON-RPC id, the generations and the size of {@code turn_config}, then {@link #checkNumbers}
 * for the numbers in {@code payload} and {@code turn_config}.
 */
final class FrameBounds {

    /** Writes a tree as compact JSON (the measure of {@code turn_config}'s size). */
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private FrameBounds() {
    }

    /**
     * The bounds of DESIGN §3 on a frame whose fields have their types: ids, names, the digest,
     * the JSON-RPC id, {@code retry_of_generation} below {@code prompt_generation}, and the size of
     * {@code turn_config} ({@link InputBounds}). Checked in the order of the fields in DESIGN §3;
     * the message names the field and its rule, never the value.
     *
     * @throws FrameRejectedException with {@link DlqReason#INVALID_FIELD}
     */
    static void check(Frame f) throws FrameRejectedException {
        if (!InputBounds.isSessionId(f.sessionId())) {
            throw reject(DlqReason.INVALID_FIELD, InputBounds.invalidId("session_id"));
        }
        if (f.source() != null && f.source().wire().startsWith("acp_") && f.payload() != null) {
            JsonNode id = f.payload().id();
            if (id != null && !id.isNull() && !(id.isIntegralNumber() && id.canConvertToLong())
                    && !(id.isTextual() && InputBounds.isJsonRpcIdText(id.textValue()))) {
                throw reject(DlqReason.INVALID_FIELD, "field payload.id " + InputBounds.JSONRPC_ID_RULE);
            }
        }
        name("agent_type", f.agentType());
        name("provider_id", f.providerId());
        id("model_id", f.modelId());
        id("workspace_id", f.workspaceId());
        id("run_id", f.runId());
        id("execution_profile_id", f.executionProfileId());
        id("task_id", f.taskId());
        id("agent_profile_id", f.agentProfileId());
        id("command_id", f.commandId());
        if (f.retryOfGeneration() != null && f.retryOfGeneration() >= f.promptGeneration()) {
            throw reject(DlqReason.INVALID_FIELD, "field retry_of_generation must be less than prompt_generation");
        }
        if (f.promptDigest() != null && !InputBounds.isDigest(f.promptDigest())) {
            throw reject(DlqReason.INVALID_FIELD, "field prompt_digest " + InputBounds.DIGEST_RULE);
        }
        if (f.turnConfig() != null && compactSize(f.turnConfig()) > InputBounds.MAX_TURN_CONFIG_BYTES) {
            throw reject(DlqReason.INVALID_FIELD,
                    "field turn_config is larger than " + InputBounds.MAX_TURN_CONFIG_BYTES + " bytes as compact JSON");
        }
    }

    /**
     * The number bound of DESIGN §3 ({@link InputBounds#NUMBER_RULE}), checked after
     * {@link #check}: every number in {@code payload} (as {@link Payload#numbersInRange()} read it
     * in the parser's pass) and in {@code turn_config} is an integer of at most
     * {@value InputBounds#MAX_INTEGER_DIGITS} digits or, with a fraction or exponent, a finite
     * IEEE-754 double. {@code 1e400}, {@code -1e400} and a 65-digit integer are refused here, so no
     * consumer meets a number without an RFC 8785 or decimal form (evidence's {@code PromptDigest},
     * {@code SignalExtractor}) or one whose decimal text is long. The message names the field,
     * never the value.
     *
     * @throws FrameRejectedException with {@link DlqReason#INVALID_FIELD}
     */
    static void checkNumbers(Frame f) throws FrameRejectedException {
        if (f.payload() != null && !f.payload().numbersInRange()) {
            throw reject(DlqReason.INVALID_FIELD, "field payload " + InputBounds.NUMBER_RULE);
        }
        if (f.turnConfig() != null && !InputBounds.hasBoundedNumbers(f.turnConfig())) {
            throw reject(DlqReason.INVALID_FIELD, "field turn_config " + InputBounds.NUMBER_RULE);
        }
    }

    private static void id(String field, String value) throws FrameRejectedException {
        if (value != null && !InputBounds.isId(value)) {
            throw reject(DlqReason.INVALID_FIELD, InputBounds.invalidId(field));
        }
    }

    private static void name(String field, String value) throws FrameRejectedException {
        if (value != null && !InputBounds.isName(value)) {
            throw reject(DlqReason.INVALID_FIELD, "field " + field + " " + InputBounds.NAME_RULE);
        }
    }

    private static int compactSize(JsonNode node) {
        try {
            return COMPACT.writeValueAsBytes(node).length;
        } catch (IOException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static FrameRejectedException reject(DlqReason reason, String message) {
        return new FrameRejectedException(reason, message, false);
    }
}
