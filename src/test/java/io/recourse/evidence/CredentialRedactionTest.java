package io.recourse.evidence;

import static io.recourse.evidence.Frames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.StubClassifier;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Credentials that the text sanitizer cannot recognize by shape still never reach evidence
 * (DESIGN §9): HTTP header values redacted by the header's name, provider and model ids
 * sanitized before they enter the turn context every output carries.
 */
public class CredentialRedactionTest {

    private static final String OPAQUE = "Zp3xQ9wLm2";

    private final SignalExtractor extractor = new SignalExtractor();

    private Signal http(String headersJson) {
        Frame f = frame(2, FrameSource.HTTP, "{\"status\":429,\"headers\":" + headersJson + ",\"body\":\"slow down\"}").build();
        return extractor.extract(f).orElseThrow();
    }

    @Test
    public void credentialHeadersKeepTheirNameAndLoseTheirValueWhateverItsShape() {
        Signal s = http("{\"Cookie\":\"session=" + OPAQUE + "\",\"x-api-key\":\"" + OPAQUE + "\",\"Proxy-Authorization\":\"Basic "
                + OPAQUE + "\",\"x-goog-api-key\":\"" + OPAQUE + "\",\"x-amz-security-token\":\"" + OPAQUE + "\",\"Set-Cookie\":\"a="
                + OPAQUE + "\"}");

        assertThat(s.fields()).containsKeys("header.cookie", "header.x-api-key", "header.proxy-authorization",
                "header.x-goog-api-key", "header.x-amz-security-token", "header.set-cookie");
        assertThat(s.fields().values()).noneMatch(v -> v.contains(OPAQUE));
        assertThat(s.field("header.cookie")).isEqualTo(Sanitizer.REDACTED);
    }

    @Test
    public void rateLimitHeadersTheCatalogueReadsKeepTheirValues() {
        Signal s = http("{\"retry-after\":\"3\",\"x-ratelimit-remaining-tokens\":\"0\",\"x-ratelimit-reset-tokens\":\"6m0s\","
                + "\"anthropic-ratelimit-tokens-reset\":\"2026-06-01T12:05:00Z\",\"x-should-retry\":\"false\"}");

        assertThat(s.field("header.retry-after")).isEqualTo("3");
        assertThat(s.field("header.x-ratelimit-remaining-tokens")).isEqualTo("0");
        assertThat(s.field("header.x-ratelimit-reset-tokens")).isEqualTo("6m0s");
        assertThat(s.field("header.anthropic-ratelimit-tokens-reset")).isEqualTo("2026-06-01T12:05:00Z");
        assertThat(s.field("header.x-should-retry")).isEqualTo("false");
    }

    @Test
    public void headerNamesAreJudgedByWholeWords() {
        assertThat(SignalExtractor.isCredentialHeader("x-api-key")).isTrue();
        assertThat(SignalExtractor.isCredentialHeader("authorization")).isTrue();
        assertThat(SignalExtractor.isCredentialHeader("x_auth_token")).isTrue();
        assertThat(SignalExtractor.isCredentialHeader("x-ratelimit-limit-tokens")).isFalse();
        assertThat(SignalExtractor.isCredentialHeader("x-request-id")).isFalse();
        assertThat(SignalExtractor.isCredentialHeader("keyboard-layout")).isFalse();
    }

    @Test
    public void aSecretInTheProviderOrModelIdNeverEntersTheTurnContext() {
        String key = "sk-proj-" + OPAQUE + "abcdefgh";
        Frame prompt = Frames.prompt(1);
        Frame leaky = new Frame(prompt.sessionId(), 1, 1, prompt.occurredAt(), prompt.source(), prompt.payload(),
                prompt.agentType(), "openai " + key, "gpt-5.5?key=" + key, prompt.profileKind(), null, null, null, null, null,
                prompt.phase(), prompt.promptOrigin(), null, null, null, null, false);
        OfflineAssembler driver = new OfflineAssembler(new StubClassifier());

        driver.accept(leaky, leaky.occurredAt());
        driver.accept(Frames.error(2, "boom"), Frames.T0.plusSeconds(2));

        List<TurnOutcome> outcomes = driver.outcomes();
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.context().providerId()).doesNotContain(OPAQUE).startsWith("openai ");
            assertThat(o.context().modelId()).doesNotContain(OPAQUE).startsWith("gpt-5.5");
        });
        assertThat(driver.events()).allSatisfy(e -> assertThat(e.toString()).doesNotContain(OPAQUE));
    }

    @Test
    public void ordinaryProviderAndModelIdsAreUnchanged() {
        for (String id : List.of("anthropic", "gpt-5.5", "claude-sonnet-4-5@20250929", "models/gemini-2.5-pro",
                "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "openrouter/anthropic/claude-sonnet-4")) {
            assertThat(EvidenceAssembler.label(id)).isEqualTo(id);
        }
    }
}
