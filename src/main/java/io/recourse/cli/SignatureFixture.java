package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import io.recourse.ingress.Phase;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of a signature fixture file — the corpus {@code signatures.jsonl} format, also used by
 * {@code catalogue/fixtures.v2.jsonl}: {@code id}, {@code agent_type} (or {@code null}), optional
 * {@code provider_id} (the frames' provider, for provider-scoped rules),
 * {@code phase} (default {@code streaming}), {@code signal} or {@code signals} (inner payloads of
 * {@code acp_error}, {@code acp_update}, {@code acp_response}, {@code stderr}, {@code exit},
 * {@code http}, {@code lifecycle}), {@code expected{code, class, rule_id?}} ({@code code: null} = no
 * failure; {@code rule_id}: the rule that must decide it), optional {@code kind}, {@code why}, {@code negative_for}.
 *
 * <p>{@link #frames()} makes the line one whole turn of DESIGN §3 envelopes, so it runs through
 * the real frame parser and evidence assembler: the turn opens with {@code prompt_dispatched}
 * (a failing line in a pre-start phase) or the {@code session/prompt} request; the signals follow
 * wrapped as JSON-RPC messages; a failing line without its own terminal frame ends with
 * {@code launch_failed} (pre-start) or {@code turn_abandoned}; a line without a code ends with an
 * {@code end_turn} result unless it has its own {@code stopReason}.
 *
 * @param id       the line's id
 * @param expected the expected code, or {@code null} when the turn must not fail
 * @param ruleId   {@code expected.rule_id}: the rule that must decide the line, or {@code null}
 */
public record SignatureFixture(String id, String agentType, String providerId, Phase phase, Code expected, String ruleId,
                               JsonNode signals) {

    /** Time base of the frames: 2026-06-01T12:00:00Z, one second per frame. */
    public static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads one fixture line.
     *
     * @throws IllegalArgumentException naming the field at fault (unknown code or phase, a class
     *                                  that is not the code's class, no signals)
     */
    public static SignatureFixture parse(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("a fixture line must be a JSON object");
        }
        String id = n.path("id").asText("");
        if (id.isBlank()) {
            throw new IllegalArgumentException("missing id");
        }
        JsonNode signals = n.has("signals") ? n.get("signals") : JSON.createArrayNode().add(n.path("signal"));
        if (!signals.isArray() || signals.isEmpty() || !signals.get(0).isObject()) {
            throw new IllegalArgumentException(id + ": needs 'signal' (an object) or 'signals' (a non-empty array)");
        }
        JsonNode exp = n.path("expected");
        if (!exp.isObject() || !exp.has("code")) {
            throw new IllegalArgumentException(id + ": needs expected{code, class}");
        }
        Code code = exp.get("code").isNull() ? null : Code.fromWire(exp.get("code").asText());
        JsonNode cls = exp.path("class");
        if (code != null && cls.isTextual() && WireName.parse(ErrorClass.class, cls.asText()) != code.errorClass()) {
            throw new IllegalArgumentException(id + ": expected class " + cls.asText() + " is not the class of "
                    + code.wire() + " (" + code.errorClass().wire() + ")");
        }
        String agent = n.path("agent_type").isTextual() ? n.get("agent_type").asText() : null;
        String provider = n.path("provider_id").isTextual() ? n.get("provider_id").asText() : null;
        Phase phase = n.hasNonNull("phase") ? WireName.parse(Phase.class, n.get("phase").asText()) : Phase.STREAMING;
        String ruleId = exp.path("rule_id").isTextual() ? exp.get("rule_id").asText() : null;
        return new SignatureFixture(id, agent, provider, phase, code, ruleId, signals);
    }

    /** The session id of the fixture's turn: {@code sig-<id>}. */
    public String sessionId() {
        return "sig-" + id;
    }

    /** The record key of the fixture's turn (generation 1). */
    public String turnKey() {
        return sessionId() + "/1";
    }

    /**
     * The fixture as one turn of parsed frames, in {@code seq} order.
     *
     * @throws FrameRejectedException when a signal makes an envelope the parser rejects
     */
    public List<Frame> frames() throws FrameRejectedException {
        boolean preStart = phase.preStart() && expected != null;
        List<ObjectNode> envelopes = new ArrayList<>();
        if (preStart) {
            envelopes.add(envelope("lifecycle", phase.wire(), JSON.createObjectNode().put("event", "prompt_dispatched")));
        } else {
            ObjectNode req = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "session/prompt");
            req.putObject("params").put("sessionId", "acp-session-1").putArray("prompt").addObject()
                    .put("type", "text").put("text", "hi");
            envelopes.add(envelope("acp_request", Phase.PROMPT_SEND.wire(), req));
        }
        boolean terminal = false;
        boolean hasStop = false;
        for (JsonNode s : signals) {
            String source = s.path("source").asText();
            JsonNode p = s.path("payload");
            JsonNode payload = switch (source) {
                case "acp_error" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).set("error", p);
                case "acp_update" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", p);
                case "acp_response" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("id", p.has("stopReason") ? 1 : 0)
                        .set("result", p);
                default -> p;
            };
            hasStop |= source.equals("acp_response") && p.has("stopReason");
            terminal |= source.equals("acp_error") || source.equals("exit") || hasStop
                    || source.equals("lifecycle") && p.path("event").asText().matches("launch_failed|turn_abandoned");
            envelopes.add(envelope(source, phase.wire(), payload));
        }
        if (expected == null && !hasStop) {
            ObjectNode res = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
            res.putObject("result").put("stopReason", "end_turn");
            envelopes.add(envelope("acp_response", Phase.STREAMING.wire(), res));
        } else if (expected != null && !terminal) {
            envelopes.add(preStart
                    ? envelope("lifecycle", phase.wire(), JSON.createObjectNode().put("event", "launch_failed")
                            .put("phase", phase.wire()).put("message", ""))
                    : envelope("lifecycle", phase.wire(), JSON.createObjectNode().put("event", "turn_abandoned")));
        }
        FrameParser parser = new FrameParser();
        List<Frame> frames = new ArrayList<>();
        int seq = 1;
        for (ObjectNode e : envelopes) {
            e.put("seq", seq);
            e.put("occurred_at", BASE.plusSeconds(seq).toString());
            if (agentType != null) {
                e.put("agent_type", agentType);
            }
            if (providerId != null) {
                e.put("provider_id", providerId);
            }
            seq++;
            try {
                frames.add(parser.parse(turnKey(), JSON.writeValueAsBytes(e)));
            } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
                throw new IllegalStateException("cannot serialize an envelope of " + id, x);
            }
        }
        return frames;
    }

    private ObjectNode envelope(String source, String phaseWire, JsonNode payload) {
        ObjectNode e = JSON.createObjectNode();
        e.put("session_id", sessionId()).put("prompt_generation", 1).put("source", source).put("phase", phaseWire);
        e.set("payload", payload);
        e.put("profile_kind", "concrete");
        return e;
    }

    /** The signals as given ({@code signal} wrapped in a one-element array). */
    @Override
    public JsonNode signals() {
        return signals instanceof ArrayNode a ? a.deepCopy() : signals;
    }
}
