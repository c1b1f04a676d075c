package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

public class SanitizerTest {

    @Test
    public void nullStaysNull() {
        assertThat(Sanitizer.sanitize(null)).isNull();
    }

    @Test
    public void providerErrorTypesModelNamesAndTimestampsSurvive() {
        String text = "2026-06-01T12:00:00Z API Error: 429 {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
                + "\"message\":\"Number of request tokens has exceeded your per-minute rate limit\"}} "
                + "model=claude-sonnet-4-5-20250929 anthropic-ratelimit-input-tokens-reset";

        assertThat(Sanitizer.sanitize(text)).isEqualTo(text);
    }

    @Test
    public void timingHintsSurvive() {
        String text = "5-hour usage limit reached. Resets in 4hr 19min. Please retry in 25.46s. "
                + "Claude AI usage limit reached|1767225600 resets 9:10pm (America/New_York) retryDelay: \"25s\"";

        assertThat(Sanitizer.sanitize(text)).isEqualTo(text);
    }

    @Test
    public void jsonBodiesKeepTheirStructureWhenASecretIsRedacted() {
        String body = "{\"error\":{\"type\":\"authentication_error\"},\"api_key\":\"sk-FAKEFAKEFAKEFAKE1234\"}";

        assertThat(Sanitizer.sanitize(body))
                .isEqualTo("{\"error\":{\"type\":\"authentication_error\"},\"api_key\":\"[redacted]\"}");
    }

    @Test
    public void windowsHomeDirectoryUserNamesAreRemoved() {
        assertThat(Sanitizer.sanitize("open C:\\Users\\alice\\AppData\\config.json failed"))
                .isEqualTo("open C:\\Users\\<user>\\AppData\\config.json failed");
    }

    @Test
    public void jsonEscapedWindowsHomeDirectoryUserNamesAreRemoved() {
        assertThat(Sanitizer.sanitize("{\"path\":\"C:\\\\Users\\\\alice\\\\x\"}"))
                .isEqualTo("{\"path\":\"C:\\\\Users\\\\<user>\\\\x\"}");
    }

    @Test
    public void urlsKeepSchemeAndHostAndTheSentencePunctuationAfterThem() {
        assertThat(Sanitizer.sanitize("see https://u:p@status.example.com:8443/a/b?c=d#e."))
                .isEqualTo("see https://status.example.com.");
    }

    @Test
    public void aJwtOutsideAnyHeaderIsRedacted() {
        assertThat(Sanitizer.sanitize("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl rejected"))
                .isEqualTo("jwt [redacted] rejected");
    }

    @Test
    public void uuidsAreOpaqueIds() {
        assertThat(Sanitizer.sanitize("Session 3f6b2c1e-8a4d-4f0e-9b7a-2d5c1e9f4a63: process died"))
                .isEqualTo("Session [id]: process died");
    }

    @Test
    public void longTextIsCutToFourKibibytesOnACodePointBoundaryWithAMarker() {
        String text = "é😀 ".repeat(2000);

        String sanitized = Sanitizer.sanitize(text);

        assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
        assertThat(sanitized).endsWith(Sanitizer.TRUNCATED);
        assertThat(text).startsWith(sanitized.substring(0, sanitized.length() - Sanitizer.TRUNCATED.length()));
    }
}
