package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.Catalogue;
import io.recourse.classification.Classifier;
import io.recourse.classification.OfflineAssembler;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link ObservedCase} (the strict case parser) and {@link ObservedCaseRenderer} (case → frames). */
public class ObservedCaseRendererTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Classifier CLASSIFIER = new Classifier(Catalogue.loadDefault());

    /** A valid failure case line; {@code edit} changes it. */
    public static ObjectNode caseLine(String id, Consumer<ObjectNode> edit) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", id).put("kind", "failure").put("source_url", "https://github.com/example/agent/issues/1")
                .put("source_report", "example/agent#1").put("agent", "claude-code").put("agent_type", "claude-acp")
                .put("provider", "anthropic").put("model", "claude-sonnet-4-5").put("surface", "final_chunk")
                .put("phase", "post_start").put("text", "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":"
                        + "\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .putNull("status").putNull("headers").putNull("exit").putNull("error_code").putNull("stop_reason");
        n.putObject("expected").put("code", "provider_overloaded").put("class", "transient");
        n.put("why", "Anthropic 529 as the final API Error text.").putNull("timing_hint");
        edit.accept(n);
        n.put("split", ObservedCase.splitOf(n.path("source_report").asText("x")));
        return n;
    }

    public static ObjectNode negative(ObjectNode n, String surface) {
        n.put("kind", "negative").put("surface", surface);
        n.putObject("expected").putNull("code").putNull("class");
        return n;
    }

    /** A case line for each surface (failures where the surface allows, negatives otherwise). */
    public static ObjectNode forSurface(ObservedCase.Surface s) {
        return caseLine("obs-test-" + String.format("%03d", s.ordinal() + 1), n -> {
            n.put("surface", s.wire());
            switch (s) {
                case ACP_ERROR -> n.put("error_code", -32000);
                case STDERR_EXIT -> n.put("text", "Error: connect ECONNREFUSED 127.0.0.1:443\n\n  at TCPConnectWrap")
                        .set("expected", JSON.createObjectNode().put("code", "network_unavailable").put("class", "transient"));
                case EXIT_ONLY -> {
                    n.put("text", "process killed").putObject("exit").putNull("code").put("signal", "SIGKILL");
                    n.set("expected", JSON.createObjectNode().put("code", "agent_transport_lost").put("class", "transient"));
                }
                case HTTP -> {
                    n.put("status", 529).put("text", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                            + "\"message\":\"Overloaded\"}}");
                    n.putObject("headers").put("request-id", "<REQUEST_ID>");
                }
                case TOOL_RESULT, ANSWER, THOUGHT, SESSION_LOAD_REPLAY -> negative(n, s.wire());
                default -> {
                }
            }
        });
    }

    /** The rendered sequence's frames through the real parser; fails on any rejection. */
    public static List<Frame> parse(JsonNode sequence) throws Exception {
        List<Frame> frames = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        new FrameLines(new FrameParser(), true).sequence(sequence, 1, new FrameLines.Sink() {
            @Override
            public void frame(Frame frame) {
                frames.add(frame);
            }

            @Override
            public void rejected(FrameLines.Rejection r) {
                rejected.add(r.toString());
            }
        });
        assertThat(rejected).as("frames the parser rejected").isEmpty();
        return frames;
    }

    public static List<TurnOutcome> outcomes(List<Frame> frames) {
        OfflineAssembler a = new OfflineAssembler(CLASSIFIER);
        for (Frame f : OfflineRun.replayOrder(new ArrayList<>(frames))) {
            a.accept(f, f.occurredAt());
        }
        return a.outcomes();
    }

    private static List<String> sources(JsonNode sequence, int generation) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : sequence.get("frames")) {
            if (f.get("prompt_generation").asInt() == generation) {
                out.add(f.get("source").asText() + "/" + f.get("phase").asText());
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(ObservedCase.Surface.class)
    public void everySurfaceRendersFramesTheParserAcceptsAndOneClosedTurnOfTheExpectedOutcome(ObservedCase.Surface s)
            throws Exception {
        ObservedCase c = ObservedCase.parse(forSurface(s));

        ObjectNode sequence = ObservedCaseRenderer.sequence(c);
        List<Frame> frames = parse(sequence);
        List<TurnOutcome> outcomes = outcomes(frames);

        assertThat(sequence.get("name").asText()).isEqualTo(c.id());
        assertThat(sequence.path("expected").path("outcome").asText()).isEqualTo(c.negative() ? "completed" : "failed");
        assertThat(frames).allSatisfy(f -> {
            assertThat(f.sessionId()).isEqualTo("s-" + c.id());
            assertThat(f.occurredAt()).isEqualTo(Instant.parse("2026-06-01T12:00:00Z").plusMillis(100 * f.seq()));
        });
        assertThat(sequence.get("frames")).allSatisfy(f -> {
            assertThat(f.path("agent_type").asText()).isEqualTo("claude-acp");
            assertThat(f.path("provider_id").asText()).isEqualTo("anthropic");
            assertThat(f.path("model_id").asText()).isEqualTo("claude-sonnet-4-5");
            assertThat(f.path("profile_kind").asText()).isEqualTo("concrete");
        });
        assertThat(outcomes).hasSize(1);
        TurnOutcome o = outcomes.get(0);
        assertThat(o.promptGeneration()).isEqualTo(1);
        assertThat(o.launch()).isFalse();
        assertThat(o.outcome()).isEqualTo(c.negative() ? Outcome.COMPLETED : Outcome.FAILED);
        JsonNode prompt = sequence.get("frames").get(s == ObservedCase.Surface.SESSION_LOAD_REPLAY ? 6 : 4);
        assertThat(prompt.path("payload").path("method").asText()).isEqualTo("session/prompt");
        assertThat(prompt.path("phase").asText()).isEqualTo("prompt_send");
        assertThat(prompt.path("prompt_origin").asText()).isEqualTo("user");
    }

    @Test
    public void eachSurfaceHasTheFramesTheReadmeLists() {
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.ACP_ERROR))), 1))
                .containsExactly("acp_request/prompt_send", "acp_error/prompt_send");
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.STDERR_EXIT))), 1))
                .containsExactly("acp_request/prompt_send", "stderr/prompt_send", "stderr/prompt_send", "exit/prompt_send");
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.EXIT_ONLY))), 1))
                .containsExactly("acp_request/prompt_send", "exit/prompt_send");
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.FINAL_CHUNK))), 1))
                .containsExactly("acp_request/prompt_send", "acp_update/streaming", "acp_response/streaming");
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.HTTP))), 1))
                .containsExactly("acp_request/prompt_send", "http/prompt_send", "acp_error/prompt_send");
        assertThat(sources(ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.TOOL_RESULT))), 1))
                .containsExactly("acp_request/prompt_send", "acp_update/tool_execution", "acp_update/tool_execution",
                        "acp_update/streaming", "acp_response/streaming");
        JsonNode replay = ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.SESSION_LOAD_REPLAY)));
        assertThat(sources(replay, 0)).containsExactly("acp_request/session_init", "acp_response/session_init",
                "acp_request/session_init", "acp_update/session_init", "acp_update/session_init", "acp_response/session_init");
        assertThat(replay.get("frames").get(2).path("payload").path("method").asText()).isEqualTo("session/load");
        assertThat(replay.get("frames").get(4).path("payload").path("params").path("update").path("content")
                .path("text").asText()).startsWith("API Error: 529");
    }

    @Test
    public void payloadsCarryTheCaseFieldsAndTheirDefaults() {
        JsonNode acp = ObservedCaseRenderer.sequence(ObservedCase.parse(caseLine("obs-test-101", n -> n.put("surface", "acp_error"))));
        JsonNode error = last(acp).path("payload").path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32603);
        assertThat(error.path("message").asText()).startsWith("API Error: 529");
        assertThat(last(acp).path("payload").path("id").asInt()).isEqualTo(ObservedCaseRenderer.PROMPT_ID);

        JsonNode http = ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.HTTP)));
        JsonNode h = http.get("frames").get(5).path("payload");
        assertThat(h.path("status").asInt()).isEqualTo(529);
        assertThat(h.path("headers").path("request-id").asText()).isEqualTo("<REQUEST_ID>");
        assertThat(h.path("body").path("error").path("type").asText()).as("a JSON body is parsed").isEqualTo("overloaded_error");
        assertThat(last(http).path("payload").path("error").path("message").asText()).startsWith("{\"type\":\"error\"");
        assertThat(ObservedCaseRenderer.body("{\"a\":1} and then text").isTextual()).as("trailing text keeps it text").isTrue();
        assertThat(ObservedCaseRenderer.body("Bad gateway").asText()).isEqualTo("Bad gateway");

        JsonNode stderr = ObservedCaseRenderer.sequence(ObservedCase.parse(forSurface(ObservedCase.Surface.STDERR_EXIT)));
        assertThat(last(stderr).path("payload").toString()).isEqualTo("{\"code\":1,\"signal\":null}");

        JsonNode stop = ObservedCaseRenderer.sequence(ObservedCase.parse(caseLine("obs-test-102", n -> n.put("stop_reason", "max_tokens"))));
        assertThat(last(stop).path("payload").path("result").path("stopReason").asText()).isEqualTo("max_tokens");

        JsonNode noProvider = ObservedCaseRenderer.sequence(ObservedCase.parse(caseLine("obs-test-103",
                n -> n.putNull("provider").putNull("model"))));
        assertThat(noProvider.get("frames")).allSatisfy(f -> assertThat(f.has("provider_id") || f.has("model_id")).isFalse());
    }

    @Test
    public void aPreStartExitRendersALaunchFailure() throws Exception {
        ObservedCase c = ObservedCase.parse(caseLine("obs-test-201", n -> {
            n.put("surface", "exit_only").put("phase", "pre_start").put("text", "spawn claude ENOENT");
            n.putObject("exit").put("code", 127).putNull("signal");
            n.set("expected", JSON.createObjectNode().put("code", "provider_not_configured").put("class", "hard"));
        }));

        JsonNode sequence = ObservedCaseRenderer.sequence(c);
        List<TurnOutcome> outcomes = outcomes(parse(sequence));

        assertThat(sources(sequence, 1)).containsExactly("lifecycle/process_start", "exit/process_start");
        assertThat(sequence.get("frames").get(0).path("payload").path("event").asText()).isEqualTo("prompt_dispatched");
        assertThat(sequence.get("frames").get(0).path("prompt_origin").asText()).isEqualTo("user");
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(o.launch()).as("a launch failure").isTrue();
            assertThat(o.classification().code()).isEqualTo(Code.PROVIDER_NOT_CONFIGURED);
        });
    }

    @Test
    public void otherPreStartSurfacesRenderLaunchFailedOrTheSetupErrorResponse() throws Exception {
        ObservedCase finalChunk = ObservedCase.parse(caseLine("obs-test-202", n -> n.put("phase", "pre_start")));
        JsonNode s1 = ObservedCaseRenderer.sequence(finalChunk);
        assertThat(sources(s1, 1)).containsExactly("lifecycle/process_start", "lifecycle/process_start");
        assertThat(last(s1).path("payload").path("event").asText()).isEqualTo("launch_failed");
        assertThat(last(s1).path("payload").path("message").asText()).isEqualTo(finalChunk.text());
        assertThat(outcomes(parse(s1))).singleElement().satisfies(o -> assertThat(o.launch()).isTrue());

        ObservedCase acp = ObservedCase.parse(caseLine("obs-test-203", n -> n.put("phase", "pre_start").put("surface", "acp_error")));
        JsonNode s2 = ObservedCaseRenderer.sequence(acp);
        assertThat(sources(s2, 1)).containsExactly("lifecycle/process_start", "acp_error/session_init");
        assertThat(sources(s2, 0)).containsExactly("acp_request/session_init", "acp_request/session_init");
        assertThat(outcomes(parse(s2))).singleElement().satisfies(o -> {
            assertThat(o.launch()).isTrue();
            assertThat(o.outcome()).isEqualTo(Outcome.FAILED);
        });
    }

    @Test
    public void renderingIsDeterministic() {
        ObservedCase c = ObservedCase.parse(forSurface(ObservedCase.Surface.TOOL_RESULT));
        assertThat(ObservedCaseRenderer.sequence(c).toString()).isEqualTo(ObservedCaseRenderer.sequence(c).toString());
    }

    @Test
    public void theParserNamesTheFieldAtFault() {
        assertField(n -> n.put("surface", "popup"), "surface", "unknown surface 'popup'");
        assertField(n -> n.remove("why"), "why", "missing");
        assertField(n -> n.putNull("text"), "text", "missing");
        assertField(n -> n.put("stop_reson", "end_turn"), "stop_reson", "unknown field");
        assertField(n -> n.put("agent_type", "claude"), "agent_type", "not one of");
        assertField(n -> n.withObject("/expected").put("class", "hard"), "expected.class", "not the class of provider_overloaded");
        assertField(n -> n.withObject("/expected").put("code", "overloaded"), "expected.code", "not a DESIGN §5.1 code");
        assertField(n -> n.put("surface", "http"), "status", "required for surface http");
        assertField(n -> n.put("surface", "thought"), "surface", "negative surface");
        assertField(n -> negative(n, "acp_error"), "surface", "a negative uses");
        assertField(n -> n.put("id", "claude-1"), "id", "obs-<group>-<nnn>");
        assertField(n -> n.putObject("exit").put("code", "1"), "exit.code", "integer");
        ObjectNode wrongSplit = caseLine("obs-test-301", n -> { });
        wrongSplit.put("split", wrongSplit.get("split").asText().equals("dev") ? "test" : "dev");
        assertThatThrownBy(() -> ObservedCase.parse(wrongSplit)).isInstanceOfSatisfying(ObservedCase.CaseException.class,
                e -> assertThat(e.field()).isEqualTo("split"));
    }

    @Test
    public void windowsStatusExitCodesAreAccepted() {
        ObservedCase c = ObservedCase.parse(caseLine("obs-test-401", n -> {
            n.put("surface", "exit_only").put("phase", "pre_start");
            n.putObject("exit").put("code", 3221225781L).putNull("signal");
        }));
        assertThat(c.exitCode()).isEqualTo(3221225781L);
    }

    @Test
    public void theSplitRuleIsTheReadmes() {
        for (String report : List.of("anthropics/claude-code#39745", "openai/codex#1", "https://example.com/post")) {
            String hex = sha256Hex(report).substring(0, 8);
            assertThat(ObservedCase.splitOf(report)).isEqualTo(Long.parseLong(hex, 16) % 3 == 0 ? "test" : "dev");
        }
    }

    public static String sha256Hex(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode last(JsonNode sequence) {
        return sequence.get("frames").get(sequence.get("frames").size() - 1);
    }

    private static void assertField(Consumer<ObjectNode> edit, String field, String message) {
        ObjectNode n = caseLine("obs-test-999", edit);
        assertThatThrownBy(() -> ObservedCase.parse(n)).isInstanceOfSatisfying(ObservedCase.CaseException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).contains("field '" + field + "'").contains(message);
        });
    }
}
