package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The sanitizer's prefilters (skip a redaction's regex when the text lacks a literal
 * every match contains) never change a result: with and without them, {@code sanitize} agrees.
 */
public class SanitizerPrefilterProperties {

    private static final long SEED = 0x5A41_7153_0008L;

    private static final List<String> FRAGMENTS = List.of(
            "sk-", "sk-ant-api03-", "github_pat_", "ghp_", "ghs_", "AIza", "xoxb-", "glpat-", "AKIA", "ASIA",
            "Bearer ", "bearer ", "BEARER ", "Basic ", "basic ", "BASIC ", "Authorization: ", "AUTHORIZATION:",
            "proxy-authorization=", "--api-key ", "--API-KEY=", "--token ", "password=", "PassWord: ", "pwd=",
            "token=", "secret: ", "api_key\":\"", "API-KEY: ", "Cookie: ", "client_secret = ", "eyJ",
            "eyJhbGciOiJIUzI1NiJ9.", ".", "https://", "HTTP://", "user:pw@", "host.example", "/path/", "?q=1",
            "@", ".com", "jane.doe", "/home/", "/Users/", "C:\\Users\\", "c:/users/", "Jane Q", " ", "\n", "\"",
            "'", "=", ":", "/", "_", "-", "ses_", "run_", "req_", "toolu_", "0123456789", "abcdef", "ABCDEF",
            "AAAAAAAAAAAAAAAAAAAAAAAA", "0f8e7d6c-1a2b-3c4d-5e6f-0123456789ab", "[redacted]", "<user>", "[id]",
            "é", "İ", "K", "\u212A", "😀");

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static Gen<String> fragments(int min, int max) {
        return lists().of(Generate.pick(FRAGMENTS)).ofSizeBetween(min, max)
                .map(parts -> parts.stream().collect(Collectors.joining()));
    }

    @Test
    public void prefiltersNeverChangeTheResultOnSecretLikeText() {
        theory(3000).forAll(fragments(0, 40)).checkAssert(text ->
                assertThat(Sanitizer.sanitize(text, true)).isEqualTo(Sanitizer.sanitize(text, false)));
    }

    @Test
    public void prefiltersNeverChangeTheResultOnArbitraryText() {
        theory(1000).forAll(strings().allPossible().ofLengthBetween(0, 300)).checkAssert(text ->
                assertThat(Sanitizer.sanitize(text, true)).isEqualTo(Sanitizer.sanitize(text, false)));
    }

    @Test
    public void prefiltersNeverChangeTheResultOnAnyRedactionCorpusLine() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String file : new String[] {"/corpus/redaction.jsonl", "/redaction-extra.jsonl"}) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                getClass().getResourceAsStream(file), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                var n = json.readTree(line);
                String input = n.path("input").asText();
                assertThat(Sanitizer.sanitize(input, true)).as(n.path("id").asText()).isEqualTo(Sanitizer.sanitize(input, false));
            }
        }
        }
    }
}
