package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.evidence.PromptDigest;
import io.recourse.evidence.SignalExtractor;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The number bound of DESIGN §3 ({@link InputBounds#NUMBER_RULE}, {@link FrameBounds#checkNumbers}):
 * a number in {@code payload} or {@code turn_config} that is not a finite double, or an integer of
 * more than {@value InputBounds#MAX_INTEGER_DIGITS} digits, is an {@code invalid_field} at ingress
 * — at every place a consumer reads numbers — while {@code 1e308} and ordinary numbers pass and the
 * consumers read them.
 */
class FrameBoundsNumbersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String N = "\"__NUMBER__\"";

    private static final String DIGITS_64 = "9".repeat(64);
    private static final String DIGITS_65 = "1" + "0".repeat(64);

    private final FrameParser parser = new FrameParser();

    /** Where a number is put: the frame's source, payload and turn_config, {@link #N} marking the place. */
    record Place(String name, String source, String payload, String turnConfig) {
        String frame(String number) {
            return ("{\"session_id\":\"sess-1\",\"prompt_generation\":3,\"seq\":42,\"occurred_at\":\"2026-06-01T12:00:00Z\","
                    + "\"source\":\"" + source + "\",\"phase\":\"prompt_send\",\"payload\":" + payload
                    + (turnConfig == null ? "" : ",\"turn_config\":" + turnConfig) + "}").replace(N, number);
        }

        String field() {
            return turnConfig != null && turnConfig.contains(N) ? "turn_config" : "payload";
        }
    }

    private static final Place[] PLACES = {
            new Place("payload.params.prompt", "acp_request", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\","
                    + "\"params\":{\"sessionId\":\"s\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\",\"n\":" + N + "}]}}", null),
            new Place("payload.error.code", "acp_error",
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":" + N + ",\"message\":\"Internal error\"}}", null),
            new Place("stderr payload.line", "stderr", "{\"line\":" + N + "}", null),
            new Place("http payload.status", "http", "{\"status\":" + N + ",\"headers\":{},\"body\":\"{}\"}", null),
            new Place("exit payload.code", "exit", "{\"code\":" + N + ",\"signal\":null}", null),
            new Place("update _meta", "acp_update", "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{"
                    + "\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":"
                    + "{\"type\":\"text\",\"text\":\"x\"},\"_meta\":{\"usage\":" + N + "}}}}", null),
            new Place("turn_config", "acp_request", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\","
                    + "\"params\":{\"prompt\":[]}}", "{\"model\":\"m\",\"options\":{\"temperature\":" + N + "}}")};

    static Stream<Arguments> outOfRange() {
        return Stream.of("1e400", "-1e400", "1E+400", "1e100000", "-2.5e309", DIGITS_65, "-" + DIGITS_65, "1" + "0".repeat(999))
                .flatMap(n -> Stream.of(PLACES).map(p -> Arguments.of(p, n)));
    }

    static Stream<Arguments> inRange() {
        return Stream.of("1e308", "-1e308", "1.7976931348623157e308", "1e-400", "4.9e-324", DIGITS_64, "-" + DIGITS_64,
                        "0", "-32603", "404", "1.5", "9223372036854775808", "0." + "1".repeat(500))
                .flatMap(n -> Stream.of(PLACES).map(p -> Arguments.of(p, n)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("outOfRange")
    void aNumberOutOfRangeIsAnInvalidFieldNamingTheField(Place place, String number) {
        byte[] value = place.frame(number).getBytes(StandardCharsets.UTF_8);

        FrameRejectedException e = rejection(value);

        assertThat(e.reason()).isEqualTo(DlqReason.INVALID_FIELD);
        assertThat(e.getMessage()).isEqualTo("field " + place.field() + " " + InputBounds.NUMBER_RULE)
                .startsWith("field " + place.field() + " holds a number out of range");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("inRange")
    void aNumberInRangeIsAcceptedAndTheConsumersReadIt(Place place, String number) throws Exception {
        Frame frame = parser.parse("sess-1/3", place.frame(number).getBytes(StandardCharsets.UTF_8));

        assertThat(frame.payload().numbersInRange()).isTrue();
        assertThatCode(() -> new SignalExtractor().extract(frame)).doesNotThrowAnyException();
        assertThatCode(() -> PromptDigest.digest(frame.payload().tree())).doesNotThrowAnyException();
        if (frame.turnConfig() != null) {
            assertThatCode(() -> PromptDigest.digest(frame.turnConfig())).doesNotThrowAnyException();
        }
        // the decimal text of every accepted number is bounded (a double's plain form is at most ~330 characters)
        assertThat(maxDecimalLength(frame.payload().tree())).isLessThanOrEqualTo(400);
    }

    @Test
    void theTreePathGivesTheSameVerdictAsTheOnePassWalk() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode ok = nodes.objectNode().put("line", 1e308);
        ok.putObject("error").put("code", new BigInteger(DIGITS_64));
        ObjectNode infinite = nodes.objectNode().put("status", Double.POSITIVE_INFINITY);
        ObjectNode huge = nodes.objectNode();
        huge.putObject("params").putArray("prompt").add(new BigInteger(DIGITS_65));
        ObjectNode hugeId = nodes.objectNode().put("id", new BigInteger(DIGITS_65));

        assertThat(Payload.of(ok).numbersInRange()).isTrue();
        assertThat(Payload.of(infinite).numbersInRange()).isFalse();
        assertThat(Payload.of(huge).numbersInRange()).isFalse();
        assertThat(Payload.of(hugeId).numbersInRange()).isFalse();
        assertThat(InputBounds.hasBoundedNumbers(ok)).isTrue();
        assertThat(InputBounds.hasBoundedNumbers(infinite)).isFalse();
        assertThat(InputBounds.hasBoundedNumbers(huge)).isFalse();
    }

    @Test
    void theBoundIsSixtyFourDigitsExactly() {
        assertThat(InputBounds.isBoundedInteger(new BigInteger(DIGITS_64))).isTrue();
        assertThat(InputBounds.isBoundedInteger(new BigInteger("-" + DIGITS_64))).isTrue();
        assertThat(InputBounds.isBoundedInteger(new BigInteger(DIGITS_65))).isFalse();
        assertThat(InputBounds.isBoundedInteger(new BigInteger("-" + DIGITS_65))).isFalse();
    }

    @Test
    void aNumberOutOfRangeInAnUnknownTopLevelFieldIsDroppedNotRejected() throws Exception {
        String frame = PLACES[2].frame("7").replace("\"phase\"", "\"gateway_metric\":1e400,\"phase\"");

        Frame f = parser.parse("sess-1/3", frame.getBytes(StandardCharsets.UTF_8));

        assertThat(JSON.readTree(f.payload().toString()).get("line").intValue()).isEqualTo(7);
    }

    private FrameRejectedException rejection(byte[] value) {
        try {
            parser.parse("sess-1/3", value);
        } catch (FrameRejectedException e) {
            return e;
        }
        throw new AssertionError("frame was accepted: " + new String(value, StandardCharsets.UTF_8));
    }

    private static int maxDecimalLength(JsonNode n) {
        int max = 0;
        if (n.isIntegralNumber()) {
            max = n.bigIntegerValue().toString().length();
        } else if (n.isNumber()) {
            max = n.decimalValue().toPlainString().length();
        }
        for (JsonNode child : n) {
            max = Math.max(max, maxDecimalLength(child));
        }
        return max;
    }
}
