package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

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
}
