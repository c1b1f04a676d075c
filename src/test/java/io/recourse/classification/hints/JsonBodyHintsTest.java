package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonBodyHintsTest {

    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00.700Z");

    @Test
    void nestedResetsAtInEpochSecondsIsFound() {
        String body = "{\"error\":{\"type\":\"usage_limit_reached\",\"resets_at\":1780326300,\"resets_in_seconds\":11099}}";

        assertThat(JsonBodyHints.find(body, BASE)).contains(Instant.parse("2026-06-01T15:05:00Z"));
    }

    @Test
    void resetsAtMayBeAnRfc3339String() {
        assertThat(JsonBodyHints.resetsAt("{\"resets_at\":\"2026-06-01T15:00:00Z\"}"))
                .contains(Instant.parse("2026-06-01T15:00:00Z"));
    }

    @Test
    void resetsInSecondsIsRelativeToTheBase() {
        assertThat(JsonBodyHints.resetsInSeconds("{\"error\":{\"resets_in_seconds\":11099}}", BASE))
                .contains(Instant.parse("2026-06-01T15:04:59.700Z"));
    }

    @Test
    void googleRetryDelayInsideDetailsIsFound() {
        String body = "{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
                + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"25.46s\"}]}}";

        assertThat(JsonBodyHints.retryDelay(body, BASE)).contains(Instant.parse("2026-06-01T12:00:26.160Z"));
    }

    @Test
    void jsonAfterATextPrefixIsRead() {
        String text = "API Error: 429 {\"error\":{\"details\":[{\"retryDelay\":\"25s\"}]}}";

        assertThat(JsonBodyHints.find(text, BASE)).contains(Instant.parse("2026-06-01T12:00:25.700Z"));
    }

    @Test
    void jsonEmbeddedAsAStringValueIsRead() {
        String text = "{\"code\":-32603,\"message\":\"Internal error: API Error: 429 {\\\"error\\\":{\\\"retryDelay\\\":\\\"7s\\\"}}\"}";

        assertThat(JsonBodyHints.find(text, BASE)).contains(Instant.parse("2026-06-01T12:00:07.700Z"));
    }

    @Test
    void aBodyWithoutHintFieldsIsEmpty() {
        assertThat(JsonBodyHints.find("{\"error\":{\"type\":\"rate_limit_error\"}}", BASE)).isEmpty();
    }

    @Test
    void textThatIsNotJsonIsEmpty() {
        assertThat(JsonBodyHints.find("resets_at: {broken", BASE)).isEmpty();
    }

    /** Numbers no provider means as a delay or an epoch: beyond a double, negative, over 64 bits, finer than a nanosecond. */
    @ParameterizedTest
    @ValueSource(strings = {"1e400", "-1e400", "1e-400", "1E-999999999", "1e999999999", "-1", "-0.5", "-1e-400",
            "10000000000000000000000000000000000000000000000000000000000000000000000",
            "-10000000000000000000000000000000000000000000000000000000000000000000000",
            "1.0000000001", "0.0000000001", "1e308", "4.9e-324", "NaN", "Infinity", "-Infinity",
            "\"NaN\"", "\"Infinity\"", "\"1e400\"", "\"-1\"", "\"1e-400\"", "\"9999999999999999999999999999999999999999999999999999999999999999999999\""})
    void hostileNumbersAreNoHint(String number) {
        for (String field : new String[] {"resets_in_seconds", "resetsInSeconds", "retryDelay", "retry_delay", "resets_at"}) {
            String body = "{\"error\":{\"" + field + "\":" + number + "}}";
            String embedded = "{\"message\":\"API Error: 429 {\\\"" + field + "\\\":" + number + "}\"}";
            for (String text : new String[] {body, embedded}) {
                assertThat(JsonBodyHints.find(text, BASE)).as(text).isEmpty();
                assertThat(JsonBodyHints.resetsAt(text)).as(text).isEmpty();
                assertThat(JsonBodyHints.resetsInSeconds(text, BASE)).as(text).isEmpty();
                assertThat(JsonBodyHints.retryDelay(text, BASE)).as(text).isEmpty();
                assertThat(HintExtractor.JSON_BODY.extract(text, BASE)).as(text).isEmpty();
            }
        }
    }

    /** A tree parsed elsewhere holds doubles: 1e400 is infinity there, which has no decimal value. */
    @ParameterizedTest
    @ValueSource(strings = {"1e400", "-1e400", "-1", "1" + "0000000000" + "0000000000" + "0000000000" + "0000000000"})
    void hostileNumbersOfAPlainJacksonTreeAreNoHint(String number) throws Exception {
        ObjectMapper plain = new ObjectMapper();
        for (String field : new String[] {"resets_in_seconds", "retryDelay", "resets_at"}) {
            JsonNode tree = plain.readTree("{\"" + field + "\":" + number + "}");
            assertThatCode(() -> JsonBodyHints.find(tree, BASE)).doesNotThrowAnyException();
            assertThat(JsonBodyHints.find(tree, BASE)).as("%s: %s", field, number).isEmpty();
        }
    }

    @Test
    void aHostileNumberDoesNotHideAValidHintAfterIt() {
        String body = "{\"a\":{\"resets_in_seconds\":1e400},\"b\":{\"resets_in_seconds\":30},\"retryDelay\":-1e400}";

        assertThat(JsonBodyHints.resetsInSeconds(body, BASE)).contains(BASE.plusSeconds(30));
        assertThat(JsonBodyHints.retryDelay(body, BASE)).isEmpty();
    }

    @Test
    void numbersInRangeKeepTheirValue() {
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":25.500}", BASE)).contains(BASE.plusMillis(25_500));
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":2.5e1}", BASE)).contains(BASE.plusSeconds(25));
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":0.000000001}", BASE)).contains(BASE.plusNanos(1));
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":999999999999}", BASE)).isEmpty(); // beyond Durations.MAX
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":1e12}", BASE)).isEmpty(); // 13 integer digits
        assertThat(JsonBodyHints.retryDelay("{\"retryDelay\":999999999999.5}", BASE)).isEmpty();
        assertThat(JsonBodyHints.resetsInSeconds("{\"resets_in_seconds\":0}", BASE)).contains(BASE);
        assertThat(JsonBodyHints.retryDelay("{\"retryDelay\":7.25}", BASE)).contains(BASE.plusMillis(7_250));
        assertThat(JsonBodyHints.resetsAt("{\"resets_at\":1780326300.5}"))
                .isEqualTo(Optional.of(Instant.ofEpochSecond(1780326300L, 500_000_000)));
    }
}
