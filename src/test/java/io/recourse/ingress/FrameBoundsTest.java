package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The field bounds of DESIGN §3 ({@link InputBounds}, {@link FrameParser#checkBounds}). */
class FrameBoundsTest {

    private final FrameParser parser = new FrameParser();

    private FrameRejectedException rejection(ObjectNode f) {
        try {
            parser.parse(f.get("session_id").asText() + "/3", f.toString().getBytes(StandardCharsets.UTF_8));
        } catch (FrameRejectedException e) {
            return e;
        }
        throw new AssertionError("frame was accepted");
    }

    @ParameterizedTest
    @ValueSource(strings = {"workspace_id", "run_id", "task_id", "agent_profile_id", "execution_profile_id", "command_id",
            "model_id"})
    void anIdOverTheLengthBoundIsAnInvalidFieldNamedWithoutItsValue(String field) {
        ObjectNode f = FrameParserTest.validFrame();
        f.put(field, "x".repeat(200_000));

        FrameRejectedException e = rejection(f);

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_FIELD);
        assertThat(e.getMessage()).startsWith("field " + field + " ").doesNotContain("xxxx");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tab\t", "\u0000", "", "c1\u0085", "del\u007f"})
    void anIdOutsideTheCharsetIsAnInvalidField(String value) {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("run_id", value);

        assertThat(rejection(f).getMessage()).isEqualTo("field run_id " + InputBounds.ID_RULE);
    }

    @Test
    void anIdWithALoneSurrogateIsNotAnId() {
        assertThat(InputBounds.isId("lone\ud800")).isFalse();
        assertThat(InputBounds.isId("\udc00x")).isFalse();
        assertThat(InputBounds.isId("rocket \ud83d\ude80")).isTrue();
    }

    @Test
    void anIdOfExactlyTheBoundIsAccepted() throws Exception {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("workspace_id", "w".repeat(InputBounds.MAX_ID_CHARS));
        f.put("model_id", "models/gemini-2.5-pro@2026:free+x=1");
        f.put("task_id", "tâche 7 ✓ \ud83d\ude80");

        assertThat(parser.parse("sess-1/3", f.toString().getBytes(StandardCharsets.UTF_8)).workspaceId())
                .hasSize(InputBounds.MAX_ID_CHARS);
    }

    @Test
    void aSessionIdWithTheSignalKeySeparatorIsAnInvalidField() throws Exception {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("session_id", "a/1#x");

        assertThat(rejection(f).getMessage()).isEqualTo("field session_id " + InputBounds.SESSION_ID_RULE);
        f.put("session_id", "sess-1");
        f.put("command_id", "r1#1");
        assertThat(parser.parse("sess-1/3", f.toString().getBytes(StandardCharsets.UTF_8)).commandId()).isEqualTo("r1#1");
    }

    @Test
    void aSessionIdOverTheBoundIsAnInvalidField() {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("session_id", "s".repeat(InputBounds.MAX_ID_CHARS + 1));

        assertThat(rejection(f).getMessage()).isEqualTo("field session_id " + InputBounds.SESSION_ID_RULE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent_type", "provider_id"})
    void aNameMustMatchItsPattern(String field) {
        for (String bad : new String[] {"Codex-ACP", "-codex", "a".repeat(65), "codex acp", "x".repeat(200_000)}) {
            ObjectNode f = FrameParserTest.validFrame();
            f.put(field, bad);

            FrameRejectedException e = rejection(f);

            assertThat(e.reason()).isEqualTo(DlqReason.INVALID_FIELD);
            assertThat(e.getMessage()).isEqualTo("field " + field + " " + InputBounds.NAME_RULE);
        }
    }

    @Test
    void aPromptDigestMustBeLowerCaseHexSha256() throws Exception {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("prompt_digest", "ABC123");
        assertThat(rejection(f).getMessage()).isEqualTo("field prompt_digest " + InputBounds.DIGEST_RULE);

        f.put("prompt_digest", "0123456789abcdef".repeat(4));
        assertThat(parser.parse("sess-1/3", f.toString().getBytes(StandardCharsets.UTF_8)).promptDigest()).hasSize(64);
    }

    @Test
    void aRetryOfGenerationMustBeAnEarlierGeneration() {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("retry_of_generation", 3);

        assertThat(rejection(f).getMessage()).isEqualTo("field retry_of_generation must be less than prompt_generation");
    }

    @Test
    void aJsonRpcIdIsAnIntegerOrABoundedString() throws Exception {
        ObjectNode f = FrameParserTest.validFrame();
        f.put("source", "acp_response");
        f.putObject("payload").put("jsonrpc", "2.0").put("id", "i".repeat(129)).putObject("result");
        assertThat(rejection(f).getMessage()).isEqualTo("field payload.id " + InputBounds.JSONRPC_ID_RULE);

        ((ObjectNode) f.get("payload")).putObject("id");
        assertThat(rejection(f).reason()).isEqualTo(DlqReason.INVALID_FIELD);

        ((ObjectNode) f.get("payload")).put("id", 7);
        assertThat(parser.parse("sess-1/3", f.toString().getBytes(StandardCharsets.UTF_8)).payload().id().asInt())
                .isEqualTo(7);
    }

    @Test
    void aTurnConfigOverItsSizeBoundIsAnInvalidField() {
        ObjectNode f = FrameParserTest.validFrame();
        f.putObject("turn_config").put("options", "o".repeat(InputBounds.MAX_TURN_CONFIG_BYTES));

        assertThat(rejection(f).getMessage()).startsWith("field turn_config is larger than");
    }

    @Test
    void aPayloadNestedTooDeeplyIsInvalidJsonNamingTheDepth() {
        String deep = "[".repeat(999) + "1" + "]".repeat(999);
        String value = FrameParserTest.validFrame().toString().replace("{\"line\":\"boom\"}", "{\"deep\":" + deep + "}");

        FrameRejectedException e;
        try {
            parser.parse("sess-1/3", value.getBytes(StandardCharsets.UTF_8));
            throw new AssertionError("accepted");
        } catch (FrameRejectedException rejected) {
            e = rejected;
        }

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_JSON);
        assertThat(e.getMessage()).isEqualTo(InputBounds.tooDeep("frame value"));
    }

    @Test
    void aRecordKeyOfAJsonInputIsBoundedAndRequired() {
        assertThat(InputBounds.keyProblem(null)).contains("null");
        assertThat(InputBounds.keyProblem(new byte[InputBounds.MAX_KEY_BYTES + 1])).contains("more than the bound");
        assertThat(InputBounds.keyProblem("sess-1".getBytes(StandardCharsets.UTF_8))).isNull();
    }
}
