package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every line of the shared {@code corpus/redaction.jsonl} and of our own {@code redaction-extra.jsonl}
 * (the gaps an outside attack found, {@code origin: "attack"}; DESIGN §9), named by its id.
 */
public class SanitizerCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CORPUS = "/corpus/redaction.jsonl";
    private static final String EXTRA = "/redaction-extra.jsonl";

    public static Stream<Arguments> redactionLines() throws IOException {
        return Stream.concat(lines(CORPUS).stream(), lines(EXTRA).stream());
    }

    public static List<Arguments> lines(String resource) throws IOException {
        List<Arguments> lines = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(SanitizerCorpusTest.class.getResourceAsStream(resource));
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    JsonNode node = JSON.readTree(line);
                    lines.add(Arguments.of(Named.of(node.get("id").asText(), node)));
                }
            }
        }
        return lines;
    }

    @Test
    public void theCorpusHoldsEveryRedactionLine() throws IOException {
        assertThat(lines(CORPUS)).hasSize(76);
    }

    @Test
    public void everyExtraLineComesFromTheAttack() throws IOException {
        assertThat(lines(EXTRA)).hasSizeGreaterThanOrEqualTo(17)
                .allSatisfy(a -> assertThat(((JsonNode) ((Named<?>) a.get()[0]).getPayload()).get("origin").asText())
                        .isEqualTo("attack"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("redactionLines")
    public void sanitizedTextHoldsNoSecretAndKeepsTheContext(JsonNode line) {
        String sanitized = Sanitizer.sanitize(line.get("input").asText());

        for (JsonNode secret : line.get("must_not_contain")) {
            assertThat(sanitized).as("secret of %s", line.get("id").asText()).doesNotContain(secret.asText());
        }
        for (JsonNode context : line.get("must_contain")) {
            assertThat(sanitized).as("context of %s", line.get("id").asText()).contains(context.asText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("redactionLines")
    public void sanitizedTextIsAtMostFourKibibytes(JsonNode line) {
        String sanitized = Sanitizer.sanitize(line.get("input").asText());

        assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("redactionLines")
    public void sanitizingTwiceGivesTheSameText(JsonNode line) {
        String once = Sanitizer.sanitize(line.get("input").asText());

        assertThat(Sanitizer.sanitize(once)).isEqualTo(once);
    }
}
