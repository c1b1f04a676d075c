package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameParserTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final FrameParser parser = new FrameParser();

    static ObjectNode validFrame() {
        ObjectNode f = MAPPER.createObjectNode();
        f.put("session_id", "sess-1");
        f.put("prompt_generation", 3);
        f.put("seq", 42);
        f.put("occurred_at", "2026-06-01T12:00:00Z");
        f.put("source", "stderr");
        f.putObject("payload").put("line", "boom");
        return f;
    }

    private static byte[] bytes(ObjectNode f) {
        return f.toString().getBytes(StandardCharsets.UTF_8);
    }

    private FrameRejectedException rejection(String key, byte[] value) {
        try {
            parser.parse(key, value);
        } catch (FrameRejectedException e) {
            return e;
        }
        throw new AssertionError("frame was accepted");
    }

    @Test
    void aValidFrameIsParsedWithItsRequiredAndOptionalFields() throws Exception {
        ObjectNode f = validFrame();
        f.put("agent_type", "codex-acp");
        f.put("profile_kind", "concrete");
        f.put("phase", "prompt_send");
        f.put("prompt_origin", "retry");
        f.put("retry_of_generation", 2);
        f.put("command_id", "cmd-9");
        f.put("resume_guarantee", true);
        f.putObject("turn_config").put("model", "gpt-5.5");

        Frame frame = parser.parse("sess-1/3", bytes(f));

        assertThat(frame.sessionId()).isEqualTo("sess-1");
        assertThat(frame.promptGeneration()).isEqualTo(3);
        assertThat(frame.seq()).isEqualTo(42);
        assertThat(frame.occurredAt()).isEqualTo(Instant.parse("2026-06-01T12:00:00Z"));
        assertThat(frame.source()).isEqualTo(FrameSource.STDERR);
        assertThat(frame.payload().tree().get("line").asText()).isEqualTo("boom");
        assertThat(frame.phase()).isEqualTo(Phase.PROMPT_SEND);
        assertThat(frame.promptOrigin()).isEqualTo(PromptOrigin.RETRY);
        assertThat(frame.profileKind()).isEqualTo(ProfileKind.CONCRETE);
        assertThat(frame.retryOfGeneration()).isEqualTo(2);
        assertThat(frame.commandId()).isEqualTo("cmd-9");
        assertThat(frame.resumeGuarantee()).isTrue();
        assertThat(frame.turnConfig().get("model").asText()).isEqualTo("gpt-5.5");
    }

    @Test
    void unknownFieldsAreIgnored() throws Exception {
        ObjectNode f = validFrame();
        f.put("gateway_build", "1.2.3");
        f.putObject("extra").put("x", 1);

        assertThat(parser.parse("sess-1/3", bytes(f)).seq()).isEqualTo(42);
    }

    @Test
    void aSessionIdContainingSlashesIsMatchedAgainstTheKeyUpToItsLastSlash() throws Exception {
        ObjectNode f = validFrame();
        f.put("session_id", "team/a/sess-1");

        Frame frame = parser.parse("team/a/sess-1/3", bytes(f));

        assertThat(frame.sessionId()).isEqualTo("team/a/sess-1");
        assertThat(frame.turnKey()).isEqualTo("team/a/sess-1/3");
    }

    @Test
    void anOffsetTimestampIsReadAsAnUtcInstant() throws Exception {
        ObjectNode f = validFrame();
        f.put("occurred_at", "2026-06-01T14:00:00.250+02:00");

        assertThat(parser.parse("sess-1/3", bytes(f)).occurredAt()).isEqualTo(Instant.parse("2026-06-01T12:00:00.250Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-06-01t12:00:00z", "2026-06-01 12:00:00Z", "2026-06-01T14:00:00+02:00"})
    void rfc3339VariantsAreAccepted(String occurredAt) throws Exception {
        ObjectNode f = validFrame();
        f.put("occurred_at", occurredAt);

        assertThat(parser.parse("sess-1/3", bytes(f)).occurredAt()).isEqualTo(Instant.parse("2026-06-01T12:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "[1,2]", "\"text\"", "null", "{} {}", "", "{\"session_id\":\"a\",\"session_id\":\"b\"}"})
    void aValueThatIsNotExactlyOneJsonObjectIsInvalidJson(String value) {
        FrameRejectedException e = rejection("sess-1/3", value.getBytes(StandardCharsets.UTF_8));

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_JSON);
        assertThat(e.reason().wire()).isEqualTo("invalid_json");
    }

    @Test
    void aNullValueIsInvalidJson() {
        assertThat(rejection("sess-1/3", null).reason()).isEqualTo(DlqReason.INVALID_JSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"session_id", "prompt_generation", "seq", "occurred_at", "source", "payload"})
    void aMissingRequiredFieldIsRejectedNamingTheField(String field) {
        ObjectNode f = validFrame();
        f.remove(field);

        FrameRejectedException e = rejection("sess-1/3", bytes(f));

        assertThat(e.reason()).isEqualTo(DlqReason.MISSING_FIELD);
        assertThat(e.getMessage()).contains(field);
    }

    @Test
    void aNullRequiredFieldCountsAsMissing() {
        ObjectNode f = validFrame();
        f.putNull("seq");

        assertThat(rejection("sess-1/3", bytes(f)).reason()).isEqualTo(DlqReason.MISSING_FIELD);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "prompt_generation=-1", "prompt_generation=\"3\"", "prompt_generation=1.5", "prompt_generation=9999999999",
            "seq=-5", "seq=\"42\"", "occurred_at=\"yesterday\"", "occurred_at=\"2026-06-01T12:00:00\"", "occurred_at=\"2026-06-01T12:00Z\"", "occurred_at=\"2026-13-01T12:00:00Z\"",
            "occurred_at=17000000", "source=\"smoke_signal\"", "source=\"STDERR\"", "payload=[1]", "payload=\"line\"",
            "session_id=7", "session_id=\"\"", "phase=\"warp\"", "profile_kind=\"hybrid\"", "prompt_origin=\"robot\"",
            "agent_type=5", "retry_of_generation=-1", "turn_config=[]", "resume_guarantee=\"yes\""})
    void aFieldWithTheWrongTypeOrValueIsInvalidNamingTheField(String assignment) throws Exception {
        String field = assignment.substring(0, assignment.indexOf('='));
        ObjectNode f = validFrame();
        f.set(field, MAPPER.readTree(assignment.substring(assignment.indexOf('=') + 1)));
        FrameRejectedException e = rejection("sess-1/3", bytes(f));

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_FIELD);
        assertThat(e.getMessage()).contains(field);
    }

    @Test
    void aKeyWhoseSessionPartDiffersFromTheBodyIsAKeyMismatch() {
        FrameRejectedException e = rejection("sess-2/3", bytes(validFrame()));

        assertThat(e.reason()).isEqualTo(DlqReason.KEY_MISMATCH);
        assertThat(e.getMessage()).contains("session_id");
    }

    @Test
    void aKeyWhoseGenerationPartDiffersFromTheBodyIsAKeyMismatch() {
        FrameRejectedException e = rejection("sess-1/4", bytes(validFrame()));

        assertThat(e.reason()).isEqualTo(DlqReason.KEY_MISMATCH);
        assertThat(e.getMessage()).contains("prompt_generation");
    }

    @Test
    void aGenerationWithLeadingZerosInTheKeyIsAKeyMismatch() {
        assertThat(rejection("sess-1/03", bytes(validFrame())).reason()).isEqualTo(DlqReason.KEY_MISMATCH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sess-1", "sess-1/", "/3", "sess-1/three", "sess-1/-3"})
    void aKeyThatIsNotSessionSlashGenerationIsAnInvalidKey(String key) {
        assertThat(rejection(key, bytes(validFrame())).reason()).isEqualTo(DlqReason.INVALID_KEY);
    }

    @Test
    void aNullKeyIsAnInvalidKey() {
        assertThat(rejection(null, bytes(validFrame())).reason()).isEqualTo(DlqReason.INVALID_KEY);
    }

    @Test
    void aValueOverTheSizeBoundIsOversizedBeforeItIsParsed() {
        FrameParser small = new FrameParser(64);
        byte[] notEvenJson = new byte[65];

        assertThatThrownBy(() -> small.parse("sess-1/3", notEvenJson))
                .isInstanceOfSatisfying(FrameRejectedException.class, e -> assertThat(e.reason()).isEqualTo(DlqReason.OVERSIZED));
    }

    @Test
    void theDefaultSizeBoundIs256KiB() throws Exception {
        ObjectNode f = validFrame();
        String pad = "x".repeat(256 * 1024 - bytes(f).length - 20);
        f.put("padding", pad);
        assertThat(bytes(f).length).isLessThanOrEqualTo(256 * 1024);
        assertThat(parser.parse("sess-1/3", bytes(f)).seq()).isEqualTo(42);

        f.put("padding", pad + "x".repeat(100));
        assertThat(rejection("sess-1/3", bytes(f)).reason()).isEqualTo(DlqReason.OVERSIZED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"workspace_id", "run_id", "execution_profile_id"})
    void aDynamicProfileFrameWithoutItsRoutingIdentityIsRejected(String missing) {
        ObjectNode f = validFrame();
        f.put("profile_kind", "dynamic");
        f.put("workspace_id", "ws-1");
        f.put("run_id", "run-1");
        f.put("execution_profile_id", "ep-1");
        f.remove(missing);

        FrameRejectedException e = rejection("sess-1/3", bytes(f));

        assertThat(e.reason()).isEqualTo(DlqReason.MISSING_ROUTING_IDENTITY);
        assertThat(e.getMessage()).contains(missing);
    }

    @Test
    void aDynamicProfileFrameWithItsRoutingIdentityIsAccepted() throws Exception {
        ObjectNode f = validFrame();
        f.put("profile_kind", "dynamic");
        f.put("workspace_id", "ws-1");
        f.put("run_id", "run-1");
        f.put("execution_profile_id", "ep-1");

        Frame frame = parser.parse("sess-1/3", bytes(f));

        assertThat(frame.workspaceId()).isEqualTo("ws-1");
        assertThat(frame.runId()).isEqualTo("run-1");
        assertThat(frame.executionProfileId()).isEqualTo("ep-1");
    }

    @Test
    void theRejectionMessageNeverQuotesTheInput() {
        FrameRejectedException e = rejection("sess-1/3", "{\"session_id\": sk-live-SECRET123}".getBytes(StandardCharsets.UTF_8));

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_JSON);
        assertThat(e.getMessage()).doesNotContain("SECRET123");
    }

    @Test
    void everyDlqReasonHasItsDesignWireCode() {
        assertThat(DlqReason.values()).extracting(DlqReason::wire).containsExactlyInAnyOrder(
                "invalid_json", "missing_field", "invalid_field", "key_mismatch", "oversized",
                "missing_routing_identity", "invalid_key");
    }
}
