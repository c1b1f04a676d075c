package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.Sanitizer;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The classifier reads sanitized text (DESIGN §9), so every hint form must survive the sanitizer. */
class HintsAfterSanitizingTest {

    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "AI_APICallError: 5-hour usage limit reached. Resets in 4hr 19min. https://opencode.ai/workspace/wrk_1/go",
        "429 Too Many Requests, Retry-After: 3600",
        "rate_limit_error: resets at 4:00 AM UTC",
        "resets 9:10pm (America/New_York) for jane.doe@example.com",
        "Claude AI usage limit reached|1767225600",
        "rate limit exceeded reset_time: 1752624000000",
        "Please retry in 25.46s. key=AIzaSyFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAK1",
        "API Error: 429 {\"error\":{\"type\":\"usage_limit_reached\",\"resets_at\":1780326300,\"resets_in_seconds\":11099}}",
        "{\"error\":{\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"25.46s\"}]}}"
    })
    void aHintReadsTheSameBeforeAndAfterSanitizing(String text) {
        Instant before = TextHints.parse(text, BASE).or(() -> JsonBodyHints.find(text, BASE)).orElseThrow();

        String sanitized = Sanitizer.sanitize(text);

        assertThat(TextHints.parse(sanitized, BASE).or(() -> JsonBodyHints.find(sanitized, BASE))).contains(before);
    }
}
