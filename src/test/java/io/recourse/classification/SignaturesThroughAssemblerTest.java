package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.OfflineAssembler;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every signature line (corpus and catalogue fixtures) as a whole turn of DESIGN §3 envelopes
 * through the real pipeline — {@link FrameParser}, the offline evidence assembler (real signal
 * extraction, sanitizing, bounds, effect flags) and this catalogue's {@link Classifier}. The turn
 * opens with {@code prompt_dispatched} (pre-start phase) or the {@code session/prompt} request;
 * a failing line without its own terminal frame ends with {@code launch_failed} (pre-start) or
 * {@code turn_abandoned}; a line without a code ends with {@code end_turn} (README "How to test").
 */
class SignaturesThroughAssemblerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");

    static Stream<Arguments> lines() {
        List<Line> all = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        all.addAll(SignatureFixtures.read(CatalogueFixturesTest.FIXTURES));
        return all.stream().map(l -> Arguments.of(Named.of(l.toString(), l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void theLineClassifiesAsExpectedThroughTheRealAssembler(Line line) throws Exception {
        List<TurnOutcome> outcomes = OfflineAssembler.outcomes(frames(line), CLASSIFIER);

        assertThat(outcomes).as(line.id()).hasSize(1);
        TurnOutcome o = outcomes.get(0);
        if (line.expected() == null) {
            assertThat(o.outcome()).as(line.id()).isIn(Outcome.COMPLETED, Outcome.CANCELLED);
            assertThat(o.classification()).as(line.id()).isNull();
        } else {
            assertThat(o.outcome()).as(line.id()).isEqualTo(Outcome.FAILED);
            assertThat(o.classification().code()).as(line.id() + " " + o.classification().ruleId()).isEqualTo(line.expected());
        }
    }

    private static List<Frame> frames(Line line) throws Exception {
        String session = "sig-" + line.id();
        boolean preStart = line.phase().preStart() && line.expected() != null;
        List<ObjectNode> envelopes = new ArrayList<>();
        if (preStart) {
            envelopes.add(envelope(session, "lifecycle", line.phase().wire(), JSON.createObjectNode().put("event", "prompt_dispatched")));
        } else {
            ObjectNode req = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "session/prompt");
            req.putObject("params").put("sessionId", "acp-session-1").putArray("prompt").addObject().put("type", "text").put("text", "hi");
            envelopes.add(envelope(session, "acp_request", "prompt_send", req));
        }
        boolean terminal = false;
        boolean hasStop = false;
        for (JsonNode s : line.signals()) {
            String source = s.path("source").asText();
            JsonNode p = s.path("payload");
            JsonNode payload = switch (source) {
                case "acp_error" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).set("error", p);
                case "acp_update" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", p);
                case "acp_response" -> JSON.createObjectNode().put("jsonrpc", "2.0").put("id", p.has("stopReason") ? 1 : 0).set("result", p);
                default -> p;
            };
            hasStop |= source.equals("acp_response") && p.has("stopReason");
            terminal |= source.equals("acp_error") || source.equals("exit") || hasStop
                    || source.equals("lifecycle") && p.path("event").asText().matches("launch_failed|turn_abandoned");
            envelopes.add(envelope(session, source, line.phase().wire(), payload));
        }
        if (line.expected() == null && !hasStop) {
            ObjectNode res = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
            res.putObject("result").put("stopReason", "end_turn");
            envelopes.add(envelope(session, "acp_response", "streaming", res));
        } else if (line.expected() != null && !terminal) {
            envelopes.add(preStart
                    ? envelope(session, "lifecycle", line.phase().wire(),
                            JSON.createObjectNode().put("event", "launch_failed").put("phase", line.phase().wire()).put("message", ""))
                    : envelope(session, "lifecycle", line.phase().wire(), JSON.createObjectNode().put("event", "turn_abandoned")));
        }
        FrameParser parser = new FrameParser();
        List<Frame> frames = new ArrayList<>();
        int seq = 1;
        for (ObjectNode e : envelopes) {
            e.put("seq", seq);
            e.put("occurred_at", BASE.plusSeconds(seq).toString());
            if (line.agentType() != null) {
                e.put("agent_type", line.agentType());
            }
            seq++;
            frames.add(parser.parse(session + "/1", JSON.writeValueAsBytes(e)));
        }
        return frames;
    }

    private static ObjectNode envelope(String session, String source, String phase, JsonNode payload) {
        ObjectNode e = JSON.createObjectNode();
        e.put("session_id", session).put("prompt_generation", 1).put("source", source).put("phase", phase);
        e.set("payload", payload);
        e.put("profile_kind", "concrete");
        return e;
    }
}
