package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hints of {@code corpus/sequences.jsonl}: every sequence expected to be {@code rate_limited}
 * or {@code quota_limited}, named by its {@code name}. All hint positions of the classified turn
 * (known headers, HTTP bodies, every text value) are parsed, validated against the terminal
 * frame's {@code occurred_at}, and compared with the expected {@code retry_after} /
 * {@code reset_at} (1 s tolerance; {@code null} = no hint may validate).
 */
class HintSequencesCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TOLERANCE = Duration.ofSeconds(1);

    static Stream<Arguments> throttleAndQuotaSequences() throws IOException {
        List<Arguments> sequences = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(
                        HintSequencesCorpusTest.class.getResourceAsStream("/corpus/sequences.jsonl"));
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode sequence = JSON.readTree(line);
                String code = sequence.path("expected").path("code").asText();
                if (code.equals("rate_limited") || code.equals("quota_limited")) {
                    sequences.add(Arguments.of(Named.of(sequence.get("name").asText(), sequence)));
                }
            }
        }
        return sequences.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("throttleAndQuotaSequences")
    void validatedHintsAreTheExpectedOnes(JsonNode sequence) {
        JsonNode expected = sequence.get("expected");
        String field = expected.get("code").asText().equals("rate_limited") ? "retry_after" : "reset_at";
        List<JsonNode> turn = classifiedTurn(sequence);
        Instant terminalAt = Instant.parse(turn.get(turn.size() - 1).get("occurred_at").asText());

        List<Instant> validated = turn.stream()
                .flatMap(frame -> hintsOf(frame).stream())
                .flatMap(hint -> HintValidator.validate(hint, terminalAt).stream())
                .toList();

        if (expected.path(field).isNull() || expected.path(field).isMissingNode()) {
            assertThat(validated).as("no %s may validate", field).isEmpty();
        } else {
            Instant want = Instant.parse(expected.get(field).asText());
            assertThat(validated).as("validated %s", field).isNotEmpty()
                    .allSatisfy(hint -> assertThat(Duration.between(want, hint).abs()).isLessThanOrEqualTo(TOLERANCE));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("throttleAndQuotaSequences")
    void everyTimingHeaderOfTheTurnParses(JsonNode sequence) {
        for (JsonNode frame : classifiedTurn(sequence)) {
            Instant base = Instant.parse(frame.get("occurred_at").asText());
            frame.get("payload").path("headers").properties().forEach(header ->
                    HintExtractor.forHeader(header.getKey()).ifPresent(extractor ->
                            assertThat(extractor.extract(header.getValue().asText(), base))
                                    .as("%s: %s", header.getKey(), header.getValue())
                                    .isPresent()));
        }
    }

    private static List<JsonNode> classifiedTurn(JsonNode sequence) {
        List<JsonNode> frames = StreamSupport.stream(sequence.get("frames").spliterator(), false).toList();
        int generation = frames.stream().mapToInt(f -> f.get("prompt_generation").asInt()).max().orElseThrow();
        return frames.stream()
                .filter(f -> f.get("prompt_generation").asInt() == generation)
                .sorted(Comparator.comparingInt(f -> f.get("seq").asInt()))
                .toList();
    }

    private static List<Instant> hintsOf(JsonNode frame) {
        Instant base = Instant.parse(frame.get("occurred_at").asText());
        JsonNode payload = frame.get("payload");
        List<Instant> hints = new ArrayList<>();
        if (frame.get("source").asText().equals("http")) {
            payload.path("headers").properties().forEach((Map.Entry<String, JsonNode> header) ->
                    HintExtractor.forHeader(header.getKey())
                            .flatMap(extractor -> extractor.extract(header.getValue().asText(), base))
                            .ifPresent(hints::add));
            JsonNode body = payload.path("body");
            Optional<Instant> bodyHint = body.isTextual()
                    ? JsonBodyHints.find(body.asText(), base)
                    : JsonBodyHints.find(body, base);
            bodyHint.ifPresent(hints::add);
        }
        texts(payload, hints, base);
        return hints;
    }

    private static void texts(JsonNode node, List<Instant> hints, Instant base) {
        if (node.isTextual()) {
            TextHints.parse(node.asText(), base).ifPresent(hints::add);
        }
        node.elements().forEachRemaining(child -> texts(child, hints, base));
    }
}
