package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads frame envelopes (DESIGN §3) from JSONL text, one line at a time, for the offline
 * commands ({@code classify}, {@code catalogue explain}).
 *
 * <p>A line is either one envelope or — the {@code sequences.jsonl} corpus shape — one JSON object
 * with a {@code frames} array of envelopes (always so with {@code --corpus}; otherwise detected
 * per line: an object with a {@code frames} array and no {@code session_id}). A file has no record
 * keys, so each envelope's key is built from its own {@code session_id} and
 * {@code prompt_generation}; every other check of {@link FrameParser} (size bound, JSON syntax,
 * required fields, types, enums, dynamic routing identity) still runs. A line whose fields cannot
 * form a key gets a placeholder key, so the parser reports the field at fault, never a key error.
 *
 * <p>Rejections carry the line number (1-based), the frame's index inside a sequence line
 * (1-based, 0 for a plain line), the DLQ reason and the parser's message — never the line's
 * content, which may hold secrets.
 */
public final class FrameLines {

    /** Lenient only in what the parser is lenient about: duplicate keys make a line invalid here too. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** What a line yields: frames and rejections, in input order. */
    interface Sink {
        void frame(Frame frame);

        void rejected(Rejection rejection);
    }

    /**
     * One rejected line or frame.
     *
     * @param line  1-based line number
     * @param frame 1-based index in a sequence line's {@code frames}, 0 for a plain line
     */
    record Rejection(long line, int frame, DlqReason reason, String message) {

        /** {@code line 4: invalid_json: …} or {@code line 4, frame 2: missing_field: …}. */
        @Override
        public String toString() {
            return "line " + line + (frame > 0 ? ", frame " + frame : "") + ": " + reason.wire() + ": " + message;
        }
    }

    /** Counts of one read. */
    record Counts(long lines, long frames, long rejected) {
    }

    private final FrameParser parser;
    private final boolean corpus;

    /**
     * @param corpus every non-blank line is a sequence object with a {@code frames} array
     */
    FrameLines(FrameParser parser, boolean corpus) {
        this.parser = parser;
        this.corpus = corpus;
    }

    /**
     * Reads {@code in} to its end; blank lines are skipped.
     *
     * @throws IOException when reading fails (bad input is a rejection, never an exception)
     */
    Counts read(BufferedReader in, Sink sink) throws IOException {
        long lineNo = 0;
        long frames = 0;
        long rejected = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            JsonNode tree = bytes.length <= parser.maxBytes() || corpus ? tryParse(bytes) : null;
            if (corpus || isSequence(tree)) {
                if (!isSequence(tree)) {
                    sink.rejected(new Rejection(lineNo, 0, tree == null ? DlqReason.INVALID_JSON : DlqReason.MISSING_FIELD,
                            tree == null ? "line is not valid JSON" : "line is not a sequence object with a frames array"));
                    rejected++;
                    continue;
                }
                int index = 0;
                for (JsonNode envelope : tree.get("frames")) {
                    index++;
                    byte[] value = JSON.writeValueAsBytes(envelope);
                    if (accept(value, envelope, lineNo, index, sink)) {
                        frames++;
                    } else {
                        rejected++;
                    }
                }
            } else if (accept(bytes, tree, lineNo, 0, sink)) {
                frames++;
            } else {
                rejected++;
            }
        }
        return new Counts(lineNo, frames, rejected);
    }

    /**
     * The envelopes of one sequence object (its {@code frames} array, as a corpus line holds them),
     * each through the parser like a line of {@link #read}: for {@code catalogue score}, whose lines
     * are read (or rendered from observed cases) before their frames.
     *
     * @param lineNo the line the sequence came from, for rejections
     * @return the number of rejected envelopes
     */
    int sequence(JsonNode tree, long lineNo, Sink sink) throws IOException {
        int index = 0;
        int rejected = 0;
        for (JsonNode envelope : tree.path("frames")) {
            index++;
            if (!accept(JSON.writeValueAsBytes(envelope), envelope, lineNo, index, sink)) {
                rejected++;
            }
        }
        return rejected;
    }

    private boolean accept(byte[] value, JsonNode tree, long lineNo, int index, Sink sink) {
        try {
            sink.frame(parser.parse(key(tree, lineNo), value));
            return true;
        } catch (FrameRejectedException e) {
            sink.rejected(new Rejection(lineNo, index, e.reason(), e.getMessage()));
            return false;
        }
    }

    /**
     * {@code session_id + "/" + prompt_generation} from the envelope itself; a placeholder when
     * those fields are absent or malformed (the parser then names the field).
     */
    static String key(JsonNode tree, long lineNo) {
        if (tree != null && tree.isObject()) {
            JsonNode session = tree.get("session_id");
            JsonNode generation = tree.get("prompt_generation");
            if (session != null && session.isTextual() && !session.asText().isEmpty()
                    && generation != null && generation.isIntegralNumber() && generation.canConvertToInt()) {
                return session.asText() + "/" + generation.intValue();
            }
        }
        return "line-" + lineNo + "/0";
    }

    private static boolean isSequence(JsonNode tree) {
        return tree != null && tree.isObject() && tree.path("frames").isArray() && !tree.has("session_id");
    }

    private static JsonNode tryParse(byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (IOException | RuntimeException notJson) {
            return null; // the parser reports it with its own reason and position
        }
    }
}
