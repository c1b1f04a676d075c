package io.recourse.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Payload;
import io.recourse.ingress.Phase;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import java.time.Instant;

/** Builds frames for tests: session {@code s1}, agent {@code codex-acp}, concrete profile, time base 2026-06-01T12:00:00Z + seq seconds. */
public final class Frames {

    public static final ObjectMapper MAPPER = new ObjectMapper();
    public static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

    private String sessionId = "s1";
    private int generation = 1;
    private long seq;
    private FrameSource source;
    private JsonNode payload;
    private Phase phase = Phase.STREAMING;
    private PromptOrigin origin;
    private String commandId;
    private Integer retryOf;
    private String promptDigest;
    private String agentType = "codex-acp";
    private JsonNode turnConfig;
    private boolean resumeGuarantee;

    /** Ordinary prose of exactly {@code chars} characters (not a token-like run a sanitizer would redact). */
    public static String prose(int chars) {
        String words = "the quick brown fox jumps over the lazy dog ";
        return words.repeat(chars / words.length() + 1).substring(0, chars);
    }

    public static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    public static Frames frame(long seq, FrameSource source, String payload) {
        Frames f = new Frames();
        f.seq = seq;
        f.source = source;
        f.payload = json(payload);
        return f;
    }

    public static Frame prompt(long seq) {
        return frame(seq, FrameSource.ACP_REQUEST,
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"a\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}")
                .phase(Phase.PROMPT_SEND).origin(PromptOrigin.USER).build();
    }

    public static Frame chunk(long seq, String text) {
        return update(seq, "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":"
                + MAPPER.valueToTree(text) + "}}");
    }

    public static Frame thought(long seq, String text) {
        return update(seq, "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":"
                + MAPPER.valueToTree(text) + "}}");
    }

    public static Frame toolCall(long seq) {
        return update(seq, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"ls\",\"status\":\"pending\"}");
    }

    public static Frame update(long seq, String update) {
        return frame(seq, FrameSource.ACP_UPDATE,
                "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"a\",\"update\":" + update + "}}").build();
    }

    public static Frame codexMarker(long seq) {
        return update(seq, "{\"sessionUpdate\":\"session_info_update\",\"_meta\":{\"codex\":{\"threadStatus\":{\"type\":\"systemError\"}}}}");
    }

    public static Frame endTurn(long seq) {
        return result(seq, "end_turn");
    }

    public static Frame result(long seq, String stopReason) {
        return frame(seq, FrameSource.ACP_RESPONSE, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"stopReason\":\"" + stopReason + "\"}}").build();
    }

    public static Frame error(long seq, String message) {
        return frame(seq, FrameSource.ACP_ERROR, "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":"
                + MAPPER.valueToTree(message) + "}}").build();
    }

    public static Frame stderr(long seq, String line) {
        return frame(seq, FrameSource.STDERR, "{\"line\":" + MAPPER.valueToTree(line) + "}").build();
    }

    public static Frame lifecycle(long seq, String event) {
        return frame(seq, FrameSource.LIFECYCLE, "{\"event\":\"" + event + "\"}").build();
    }

    public Frames generation(int g) {
        generation = g;
        return this;
    }

    public Frames session(String id) {
        sessionId = id;
        return this;
    }

    public Frames phase(Phase p) {
        phase = p;
        return this;
    }

    public Frames origin(PromptOrigin o) {
        origin = o;
        return this;
    }

    public Frames command(String id, Integer retryOfGeneration) {
        commandId = id;
        retryOf = retryOfGeneration;
        return this;
    }

    public Frames agentType(String type) {
        agentType = type;
        return this;
    }

    public Frames promptDigest(String digest) {
        promptDigest = digest;
        return this;
    }

    public Frames turnConfig(String json) {
        turnConfig = json(json);
        return this;
    }

    public Frames resumeGuarantee() {
        resumeGuarantee = true;
        return this;
    }

    public Frame build() {
        return new Frame(sessionId, generation, seq, T0.plusSeconds(seq), source, Payload.of(payload), agentType, "openai", "gpt-5.5",
                ProfileKind.CONCRETE, null, null, null, null, null, phase, origin, commandId, retryOf, promptDigest, turnConfig,
                resumeGuarantee);
    }

    /** A frame moved to another session/generation. */
    public static Frame in(Frame f, String sessionId, int generation) {
        return new Frame(sessionId, generation, f.seq(), f.occurredAt(), f.source(), f.payload(), f.agentType(), f.providerId(),
                f.modelId(), f.profileKind(), f.workspaceId(), f.runId(), f.executionProfileId(), f.taskId(), f.agentProfileId(),
                f.phase(), f.promptOrigin(), f.commandId(), f.retryOfGeneration(), f.promptDigest(), f.turnConfig(),
                f.resumeGuarantee());
    }

    /** A frame with another phase. */
    public static Frame withPhase(Frame f, Phase phase) {
        return new Frame(f.sessionId(), f.promptGeneration(), f.seq(), f.occurredAt(), f.source(), f.payload(), f.agentType(),
                f.providerId(), f.modelId(), f.profileKind(), f.workspaceId(), f.runId(), f.executionProfileId(), f.taskId(),
                f.agentProfileId(), phase, f.promptOrigin(), f.commandId(), f.retryOfGeneration(), f.promptDigest(),
                f.turnConfig(), f.resumeGuarantee());
    }
}
