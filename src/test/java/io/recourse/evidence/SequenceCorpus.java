package io.recourse.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code corpus/sequences.jsonl} (every line) into parsed frames and expectations. */
public final class SequenceCorpus {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    /** One corpus line: its name, its frames parsed by {@link FrameParser}, and {@code expected}. */
    public record Line(String name, List<Frame> frames, JsonNode expected) {

        String expectedOutcome() {
            return expected.path("outcome").asText();
        }

        boolean expectedReplaySafe() {
            return expected.path("replay_safe").asBoolean();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private SequenceCorpus() {
    }

    public static List<Line> lines() {
        try (InputStream in = SequenceCorpus.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Line> lines = new ArrayList<>();
            FrameParser parser = new FrameParser();
            for (String raw : text.split("\n")) {
                if (raw.isBlank()) {
                    continue;
                }
                JsonNode line = MAPPER.readTree(raw);
                List<Frame> frames = new ArrayList<>();
                for (JsonNode f : line.get("frames")) {
                    String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                    frames.add(parser.parse(key, MAPPER.writeValueAsBytes(f)));
                }
                lines.add(new Line(line.get("name").asText(), frames, line.get("expected")));
            }
            return lines;
        } catch (IOException | FrameRejectedException e) {
            throw new IllegalStateException("corpus/sequences.jsonl is unreadable: " + e.getMessage(), e);
        }
    }
}
