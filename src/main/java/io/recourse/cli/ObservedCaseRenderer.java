package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Renders an {@link ObservedCase} into one whole turn of DESIGN §3 frame envelopes, the way its agent
 * emits them, as one line of the corpus {@code sequences.jsonl} shape: {@code name} (the case id),
 * {@code agent_type}, {@code profile_kind: concrete}, {@code source_agent} (the case's
 * {@code agent}), {@code frames}, {@code expected {outcome, code, class}} ({@code failed} with the
 * case's code, or {@code completed} with nulls for a negative).
 *
 * <p>Every frame has {@code session_id = "s-" + id}, {@code seq} from 1, {@code occurred_at} =
 * {@value #BASE_TEXT} + {@code seq} × 100 ms, {@code agent_type}, {@code provider_id} and
 * {@code model_id} (left out when the case has none), {@code profile_kind: concrete} and a
 * {@code phase}. The JSON-RPC {@code sessionId} is {@code "acp-" + id}. The case's
 * {@code timing_hint} is never rendered on its own: it is part of {@code text}, where the agent
 * printed it.
 *
 * <p>Post-start cases (the observed README's "Builder" section lists the same):
 * <ul>
 *   <li>generation 0 ({@code session_init}): {@code initialize} (id 0) and its result,
 *       {@code session/new} (id 1) and its result — or, for {@code session_load_replay}, the
 *       {@code session/load} (id 1) replay: a {@code user_message_chunk}, the {@code text} as an
 *       {@code agent_message_chunk}, the result;</li>
 *   <li>generation 1: the {@code session/prompt} request (id 2, {@code phase: prompt_send},
 *       {@code prompt_origin: user}), then by surface:
 *     <ul>
 *       <li>{@code acp_error}: the error response {@code {code: error_code ?: -32603, message: text}}
 *           ({@code prompt_send});</li>
 *       <li>{@code stderr_exit}: one {@code stderr} frame per non-empty line of {@code text}, then
 *           the {@code exit} (default {@code {code: 1, signal: null}}) ({@code prompt_send});</li>
 *       <li>{@code exit_only}: the {@code exit} only;</li>
 *       <li>{@code final_chunk}: {@code text} as an {@code agent_message_chunk}, then the result
 *           {@code {stopReason: stop_reason ?: end_turn}} ({@code streaming});</li>
 *       <li>{@code http}: an {@code http} frame {@code {status, headers, body}} (body = {@code text}
 *           parsed as JSON when it is a JSON object or array, else the string), then the error
 *           response with {@code text} as the agent's message ({@code prompt_send});</li>
 *       <li>{@code tool_result}: a {@code tool_call} and its completed {@code tool_call_update}
 *           whose content is {@code text} ({@code tool_execution}), a normal answer chunk,
 *           {@code end_turn};</li>
 *       <li>{@code answer}: one {@code agent_message_chunk} of answer prose quoting {@code text}
 *           ({@value #ANSWER_INTRO}… text …{@value #ANSWER_OUTRO}), {@code end_turn};</li>
 *       <li>{@code thought}: {@code text} as an {@code agent_thought_chunk}, a normal answer chunk,
 *           {@code end_turn};</li>
 *       <li>{@code session_load_replay}: a normal answer chunk and {@code end_turn}.</li>
 *     </ul></li>
 * </ul>
 * Pre-start cases (failures only): generation 1 opens with the {@code prompt_dispatched}
 * lifecycle frame ({@code process_start}, {@code prompt_origin: user}) and never sends a
 * {@code session/prompt}; then {@code stderr_exit} / {@code exit_only} as above in
 * {@code process_start}; {@code acp_error} as generation-0 {@code initialize} and {@code session/new}
 * requests ({@code session_init}) answered by the generation-1 error response to
 * {@code session/new} ({@code session_init}); every other surface as {@code launch_failed
 * {phase: process_start, message: text}} (after the {@code http} frame for {@code http}).
 *
 * <p>Deterministic: the same case renders to the same bytes. Stateless and thread-safe.
 */
public final class ObservedCaseRenderer {

    static final String BASE_TEXT = "2026-06-01T12:00:00Z";
    /** Time base of the frames. */
    public static final Instant BASE = Instant.parse(BASE_TEXT);
    /** Time between two consecutive frames. */
    public static final Duration STEP = Duration.ofMillis(100);
    /** Default JSON-RPC error code of {@code acp_error} and {@code http} cases. */
    public static final int DEFAULT_ERROR_CODE = -32603;
    /** JSON-RPC id of the {@code session/prompt} request. */
    public static final int PROMPT_ID = 2;

    static final String PROMPT = "Fix the failing test in src/parser.ts";
    static final String NORMAL_ANSWER = "The test now passes: the parser skips the trailing comma.";
    static final String ANSWER_INTRO = "The log you pasted contains this error:\n\n";
    static final String ANSWER_OUTRO = "\n\nIt came from an earlier run; nothing failed in this turn.";
    static final String TOOL_ANSWER = "The command printed that error; the tests themselves pass.";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Whole text as one value: trailing data makes the body text, not a truncated object. */
    private static final com.fasterxml.jackson.databind.ObjectReader BODY = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .readerFor(JsonNode.class);

    private ObservedCaseRenderer() {
    }

    /** The case as one {@code sequences.jsonl} line (an object; serialize it compactly for a file). */
    public static ObjectNode sequence(ObservedCase c) {
        ObjectNode line = JSON.createObjectNode();
        line.put("name", c.id());
        line.put("agent_type", c.agentType());
        line.put("profile_kind", "concrete");
        line.put("source_agent", c.agent());
        line.set("frames", frames(c));
        ObjectNode expected = line.putObject("expected");
        expected.put("outcome", c.negative() ? "completed" : "failed");
        expected.put("code", c.expected() == null ? null : c.expected().wire());
        expected.put("class", c.expectedClass() == null ? null : c.expectedClass().wire());
        return line;
    }

    /** The session id of the case's frames: {@code s-<id>}. */
    public static String sessionId(ObservedCase c) {
        return "s-" + c.id();
    }

    /** The case's frame envelopes, in {@code seq} order. */
    public static ArrayNode frames(ObservedCase c) {
        Frames f = new Frames(c);
        if (c.preStart()) {
            preStart(c, f);
        } else {
            postStart(c, f);
        }
        return f.out;
    }

    private static void preStart(ObservedCase c, Frames f) {
        f.add(1, "lifecycle", "process_start", lifecycle("prompt_dispatched")).put("prompt_origin", "user");
        switch (c.surface()) {
            case ACP_ERROR -> {
                f.add(0, "acp_request", "session_init", initialize());
                f.add(0, "acp_request", "session_init", sessionNew());
                f.add(1, "acp_error", "session_init", error(1, c.errorCode(), c.text()));
            }
            case STDERR_EXIT -> {
                stderr(c, f, "process_start");
                f.add(1, "exit", "process_start", exit(c));
            }
            case EXIT_ONLY -> f.add(1, "exit", "process_start", exit(c));
            default -> {
                if (c.surface() == ObservedCase.Surface.HTTP) {
                    f.add(1, "http", "process_start", http(c));
                }
                f.add(1, "lifecycle", "process_start", lifecycle("launch_failed")
                        .put("phase", "process_start").put("message", c.text()));
            }
        }
    }

    private static void postStart(ObservedCase c, Frames f) {
        f.add(0, "acp_request", "session_init", initialize());
        f.add(0, "acp_response", "session_init", result(0, JSON.createObjectNode().put("protocolVersion", 1)));
        if (c.surface() == ObservedCase.Surface.SESSION_LOAD_REPLAY) {
            ObjectNode load = request(1, "session/load");
            load.withObject("/params").put("sessionId", acpSession(c)).put("cwd", "/work/app").putArray("mcpServers");
            f.add(0, "acp_request", "session_init", load);
            f.add(0, "acp_update", "session_init", update(c, chunk("user_message_chunk", PROMPT)));
            f.add(0, "acp_update", "session_init", update(c, chunk("agent_message_chunk", c.text())));
            f.add(0, "acp_response", "session_init", result(1, JSON.createObjectNode()));
        } else {
            f.add(0, "acp_request", "session_init", sessionNew());
            f.add(0, "acp_response", "session_init", result(1, JSON.createObjectNode().put("sessionId", acpSession(c))));
        }
        ObjectNode prompt = request(PROMPT_ID, "session/prompt");
        prompt.withObject("/params").put("sessionId", acpSession(c)).putArray("prompt").addObject()
                .put("type", "text").put("text", PROMPT);
        f.add(1, "acp_request", "prompt_send", prompt).put("prompt_origin", "user");
        switch (c.surface()) {
            case ACP_ERROR -> f.add(1, "acp_error", "prompt_send", error(PROMPT_ID, c.errorCode(), c.text()));
            case STDERR_EXIT -> {
                stderr(c, f, "prompt_send");
                f.add(1, "exit", "prompt_send", exit(c));
            }
            case EXIT_ONLY -> f.add(1, "exit", "prompt_send", exit(c));
            case FINAL_CHUNK -> {
                f.add(1, "acp_update", "streaming", update(c, chunk("agent_message_chunk", c.text())));
                f.add(1, "acp_response", "streaming", stop(c.stopReason() == null ? "end_turn" : c.stopReason()));
            }
            case HTTP -> {
                f.add(1, "http", "prompt_send", http(c));
                f.add(1, "acp_error", "prompt_send", error(PROMPT_ID, c.errorCode(), c.text()));
            }
            case TOOL_RESULT -> {
                ObjectNode call = JSON.createObjectNode().put("sessionUpdate", "tool_call").put("toolCallId", "call_1")
                        .put("title", "Run the tests").put("kind", "execute").put("status", "in_progress");
                f.add(1, "acp_update", "tool_execution", update(c, call));
                ObjectNode done = JSON.createObjectNode().put("sessionUpdate", "tool_call_update")
                        .put("toolCallId", "call_1").put("status", "completed");
                done.putArray("content").addObject().put("type", "content").putObject("content")
                        .put("type", "text").put("text", c.text());
                f.add(1, "acp_update", "tool_execution", update(c, done));
                answer(c, f, TOOL_ANSWER);
            }
            case ANSWER -> answer(c, f, ANSWER_INTRO + c.text() + ANSWER_OUTRO);
            case THOUGHT -> {
                f.add(1, "acp_update", "streaming", update(c, chunk("agent_thought_chunk", c.text())));
                answer(c, f, NORMAL_ANSWER);
            }
            case SESSION_LOAD_REPLAY -> answer(c, f, NORMAL_ANSWER);
            default -> throw new IllegalStateException("unrendered surface " + c.surface().wire());
        }
    }

    private static void answer(ObservedCase c, Frames f, String text) {
        f.add(1, "acp_update", "streaming", update(c, chunk("agent_message_chunk", text)));
        f.add(1, "acp_response", "streaming", stop("end_turn"));
    }

    private static void stderr(ObservedCase c, Frames f, String phase) {
        for (String line : c.text().split("\r?\n")) {
            if (!line.isEmpty()) {
                f.add(1, "stderr", phase, JSON.createObjectNode().put("line", line));
            }
        }
    }

    private static String acpSession(ObservedCase c) {
        return "acp-" + c.id();
    }

    private static ObjectNode request(int id, String method) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        r.putObject("params");
        return r;
    }

    private static ObjectNode initialize() {
        ObjectNode r = request(0, "initialize");
        ObjectNode caps = r.withObject("/params").put("protocolVersion", 1).putObject("clientCapabilities");
        caps.putObject("fs").put("readTextFile", true).put("writeTextFile", true);
        caps.put("terminal", true);
        return r;
    }

    private static ObjectNode sessionNew() {
        ObjectNode r = request(1, "session/new");
        r.withObject("/params").put("cwd", "/work/app").putArray("mcpServers");
        return r;
    }

    private static ObjectNode result(int id, JsonNode result) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
        r.set("result", result);
        return r;
    }

    private static ObjectNode stop(String stopReason) {
        return result(PROMPT_ID, JSON.createObjectNode().put("stopReason", stopReason));
    }

    private static ObjectNode error(int id, Integer code, String message) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
        r.putObject("error").put("code", code == null ? DEFAULT_ERROR_CODE : code).put("message", message);
        return r;
    }

    private static ObjectNode chunk(String kind, String text) {
        ObjectNode u = JSON.createObjectNode().put("sessionUpdate", kind);
        u.putObject("content").put("type", "text").put("text", text);
        return u;
    }

    private static ObjectNode update(ObservedCase c, ObjectNode update) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update");
        r.putObject("params").put("sessionId", acpSession(c)).set("update", update);
        return r;
    }

    private static ObjectNode lifecycle(String event) {
        return JSON.createObjectNode().put("event", event);
    }

    private static ObjectNode exit(ObservedCase c) {
        ObjectNode e = JSON.createObjectNode();
        if (c.hasExit()) {
            e.put("code", c.exitCode());
            e.put("signal", c.exitSignal());
        } else {
            e.put("code", 1);
            e.putNull("signal");
        }
        return e;
    }

    private static ObjectNode http(ObservedCase c) {
        ObjectNode h = JSON.createObjectNode().put("status", c.status());
        ObjectNode headers = h.putObject("headers");
        for (Map.Entry<String, String> e : c.headers().entrySet()) {
            headers.put(e.getKey(), e.getValue());
        }
        h.set("body", body(c.text()));
        return h;
    }

    /** {@code text} parsed when it is one JSON object or array, else the text itself. */
    static JsonNode body(String text) {
        String t = text.strip();
        if (t.startsWith("{") || t.startsWith("[")) {
            try {
                JsonNode n = BODY.readValue(t);
                if (n != null && (n.isObject() || n.isArray())) {
                    return n;
                }
            } catch (IOException notJson) {
                // the body stays text
            }
        }
        return JSON.getNodeFactory().textNode(text);
    }

    /** Builds envelopes with consecutive {@code seq}s. */
    private static final class Frames {
        final ArrayNode out = JSON.createArrayNode();
        final ObservedCase c;
        long seq;

        Frames(ObservedCase c) {
            this.c = c;
        }

        ObjectNode add(int generation, String source, String phase, ObjectNode payload) {
            seq++;
            ObjectNode e = out.addObject();
            e.put("session_id", sessionId(c));
            e.put("prompt_generation", generation);
            e.put("seq", seq);
            e.put("occurred_at", BASE.plus(STEP.multipliedBy(seq)).toString());
            e.put("source", source);
            e.set("payload", payload);
            e.put("agent_type", c.agentType());
            if (c.provider() != null) {
                e.put("provider_id", c.provider());
            }
            if (c.model() != null) {
                e.put("model_id", c.model());
            }
            e.put("profile_kind", "concrete");
            e.put("phase", phase);
            return e;
        }
    }
}
