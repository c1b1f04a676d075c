package io.recourse.evidence.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.avro.TurnStateValue;
import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.StubClassifier;
import io.recourse.evidence.TurnState;
import io.recourse.ingress.FrameParser;
import io.recourse.kit.AvroSerde;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The turn store's Avro value holds everything {@link TurnState} holds (DESIGN §4): every corpus turn round-trips. */
public class TurnStateMappingTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AvroSerde<TurnStateValue> SERDE = AvroSerde.of(TurnStateValue.class);

    public record Line(String name, JsonNode frames) {
        @Override
        public String toString() {
            return name;
        }
    }

    public static Stream<Line> corpus() throws Exception {
        try (InputStream in = TurnStateMappingTest.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            List<Line> lines = new ArrayList<>();
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!raw.isBlank()) {
                    JsonNode line = MAPPER.readTree(raw);
                    lines.add(new Line(line.get("name").asText(), line.get("frames")));
                }
            }
            return lines.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    public void every_state_of_a_corpus_turn_survives_the_turn_store_serde(Line line) throws Exception {
        OfflineAssembler assembler = new OfflineAssembler(new StubClassifier());
        FrameParser parser = new FrameParser();
        Instant appended = Instant.parse("2026-06-01T12:00:00Z");
        List<TurnState> states = new ArrayList<>();
        for (JsonNode f : line.frames()) {
            String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
            appended = appended.plus(Duration.ofMillis(250));
            assembler.accept(parser.parse(key, MAPPER.writeValueAsBytes(f)), appended);
            states.addAll(assembler.turns().values());
        }
        assembler.expireIdle(appended.plus(Duration.ofHours(3)), Duration.ofHours(2));
        states.addAll(assembler.turns().values());

        for (TurnState state : states) {
            byte[] stored = SERDE.serialize("recourse-evidence-turns-changelog", TurnStateMapping.toAvro(state));
            TurnState back = TurnStateMapping.fromAvro(SERDE.deserialize("recourse-evidence-turns-changelog", stored));

            assertThat(back).as(line.name()).isEqualTo(state);
        }
    }
}
