package io.recourse.classification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.WireName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The single place tests turn corpus signature lines ({@code signatures.jsonl} format) into
 * {@link Evidence}, with the frame → signal mapping of {@link SignalKind}'s Javadoc. When the
 * evidence assembler lands, this class is the one to switch to it.
 *
 * <p>Mapping: {@code acp_error} → {@code error{code,message,data}}; {@code acp_response} with a
 * {@code stopReason} → {@code stop{stop_reason}} (other results carry nothing); {@code acp_update}
 * carrying {@code _meta} on a non-chunk, non-tool update → {@code update_meta{update,meta,text}};
 * the run of {@code agent_message_chunk}s right before the terminal frame → one
 * {@code final_chunk{text}}; {@code stderr} → {@code stderr{line}}; {@code exit} →
 * {@code exit{code,signal}}; {@code http} → {@code http{status,body,header.*}}; {@code lifecycle}
 * → {@code lifecycle{event,message,phase}}. Effect flags follow DESIGN §1: message/thought chunks
 * with text and tool calls before the terminal frame, except the final chunk when the classifier
 * says it is the surfaced failure.
 */
public final class SignatureFixtures {

    public static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private SignatureFixtures() {
    }

    /** One parsed corpus/fixture line. */
    public record Line(String id, String agentType, Phase phase, String kind, Code expected, JsonNode signals, String why,
                JsonNode raw) {

        @Override
        public String toString() {
            return id + " (" + kind + ", " + (expected == null ? "no failure" : expected.wire()) + ")";
        }
    }

    public static List<Line> read(String resource) {
        try (InputStream in = SignatureFixtures.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            List<Line> out = new ArrayList<>();
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (raw.isBlank()) {
                    continue;
                }
                out.add(parse(JSON.readTree(raw)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every non-blank line of a JSONL test resource. */
    public static List<JsonNode> readJson(String resource) {
        try (InputStream in = SignatureFixtures.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            List<JsonNode> out = new ArrayList<>();
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!raw.isBlank()) {
                    out.add(JSON.readTree(raw));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Line parse(JsonNode n) {
        JsonNode sigs = n.has("signals") ? n.get("signals") : JSON.createArrayNode().add(n.get("signal"));
        JsonNode exp = n.path("expected").path("code");
        Code code = exp.isNull() || exp.isMissingNode() ? null : Code.fromWire(exp.asText());
        String agent = n.path("agent_type").isNull() ? null : n.path("agent_type").asText(null);
        Phase phase = n.hasNonNull("phase") ? WireName.parse(Phase.class, n.get("phase").asText()) : Phase.STREAMING;
        return new Line(n.get("id").asText(), agent, phase, n.path("kind").asText(), code, sigs, n.path("why").asText(), n);
    }

    /**
     * Evidence of a failed turn made of the line's signals (README "How to test"): the turn has
     * no stop reason unless the line itself ends with a {@code session/prompt} result.
     */
    public static Evidence failedTurn(Line line) {
        return evidence(line, false);
    }

    /** Evidence of the line's signals followed by a trailing {@code end_turn} (added when absent). */
    public static Evidence completedTurn(Line line) {
        return evidence(line, true);
    }

    /**
     * The line as a {@link CatalogueCheck.Fixture}: the evidence of a failed turn, or of a completed
     * turn when the line expects no failure (the same choice {@code recourse catalogue check} makes).
     */
    static CatalogueCheck.Fixture checkFixture(Line line) {
        JsonNode rule = line.raw().path("expected").path("rule_id");
        return new CatalogueCheck.Fixture(line.id(), line.expected() == null ? completedTurn(line) : failedTurn(line),
                line.expected(), rule.isTextual() ? rule.asText() : null);
    }

    /** One frame reduced to what the mapping needs: source, inner payload, time, phase. */
    public record Frame(String source, JsonNode payload, Instant at, Phase phase) {
    }

    private static Evidence evidence(Line line, boolean appendEndTurn) {
        List<Frame> frames = new ArrayList<>();
        int i = 0;
        for (JsonNode f : line.signals()) {
            frames.add(new Frame(f.path("source").asText(), f.path("payload"), BASE.plusSeconds(i++), line.phase()));
        }
        boolean hasStop = frames.stream().anyMatch(SignatureFixtures::isStop);
        if (appendEndTurn && !hasStop) {
            frames.add(new Frame("acp_response", JSON.createObjectNode().put("stopReason", "end_turn"), BASE.plusSeconds(i),
                    line.phase()));
        }
        String provider = line.raw().path("provider_id").isTextual() ? line.raw().get("provider_id").asText() : null;
        return evidence("session-" + line.id(), 1, line.agentType(), provider, null, line.phase().preStart(), frames);
    }

    /**
     * Evidence of generation {@code generation} of a {@code sequences.jsonl} entry: its DESIGN §3
     * envelopes in {@code seq} order, JSON-RPC wrappers removed, requests dropped, frames after the
     * terminal frame ignored. Empty when the sequence has no frame of that generation.
     */
    public static java.util.Optional<Evidence> sequenceTurn(JsonNode sequence, int generation) {
        List<JsonNode> envelopes = new ArrayList<>();
        sequence.path("frames").forEach(f -> {
            if (f.path("prompt_generation").asInt() == generation) {
                envelopes.add(f);
            }
        });
        if (envelopes.isEmpty()) {
            return java.util.Optional.empty();
        }
        envelopes.sort(java.util.Comparator.comparingLong(f -> f.path("seq").asLong()));
        List<Frame> frames = new ArrayList<>();
        boolean prompted = false;
        String provider = null;
        String model = null;
        for (JsonNode f : envelopes) {
            String source = f.path("source").asText();
            JsonNode p = f.path("payload");
            Instant at = Instant.parse(f.path("occurred_at").asText());
            Phase phase = f.hasNonNull("phase") ? WireName.parse(Phase.class, f.get("phase").asText()) : null;
            provider = f.path("provider_id").asText(provider);
            model = f.path("model_id").asText(model);
            switch (source) {
                case "acp_request" -> prompted |= p.path("method").asText().equals("session/prompt");
                case "acp_error" -> frames.add(new Frame("acp_error", p.path("error"), at, phase));
                case "acp_response" -> {
                    if (p.has("error")) {
                        frames.add(new Frame("acp_error", p.path("error"), at, phase));
                    } else {
                        frames.add(new Frame("acp_response", p.path("result"), at, phase));
                    }
                }
                case "acp_update" -> frames.add(new Frame("acp_update", p.path("params"), at, phase));
                default -> frames.add(new Frame(source, p, at, phase));
            }
            if (!frames.isEmpty() && terminalIndex(frames) >= 0) {
                break;
            }
        }
        JsonNode first = envelopes.get(0);
        return java.util.Optional.of(evidence(first.path("session_id").asText(), generation,
                first.path("agent_type").asText(null), provider, model, !prompted, frames));
    }

    private static Evidence evidence(String sessionId, int generation, String agentType, String providerId, String modelId,
                                     boolean launch, List<Frame> frames) {
        int terminal = terminalIndex(frames);
        List<Signal> signals = new ArrayList<>();
        String stopReason = null;
        boolean output = false;
        boolean tools = false;
        StringBuilder finalRun = new StringBuilder();
        long finalSeq = -1;
        Instant finalAt = null;
        Phase finalPhase = null;
        for (int i = 0; i < frames.size(); i++) {
            Frame fr = frames.get(i);
            long seq = i + 1;
            Instant at = fr.at();
            Phase phase = fr.phase();
            JsonNode p = fr.payload();
            switch (fr.source()) {
                case "acp_error" -> signals.add(signal(seq, at, FrameSource.ACP_ERROR, phase, SignalKind.ERROR,
                        fields("code", text(p.get("code")), "message", text(p.get("message")), "data", text(p.get("data")))));
                case "acp_response" -> {
                    if (p.has("stopReason")) {
                        stopReason = p.get("stopReason").asText();
                        signals.add(signal(seq, at, FrameSource.ACP_RESPONSE, phase, SignalKind.STOP,
                                fields("stop_reason", stopReason)));
                        JsonNode meta = p.path("_meta");
                        if (meta.toString().contains("\"sessionFailure\"")) {
                            // typed failure metadata on the prompt result (assumption: surfaced as update_meta)
                            signals.add(signal(seq, at, FrameSource.ACP_RESPONSE, phase, SignalKind.UPDATE_META,
                                    fields("update", "prompt_result", "meta", meta.toString())));
                        }
                    }
                }
                case "acp_update" -> {
                    JsonNode u = p.path("update");
                    String type = u.path("sessionUpdate").asText();
                    String txt = u.path("content").path("text").asText(null);
                    boolean beforeTerminal = terminal < 0 || i < terminal;
                    switch (type) {
                        case "agent_message_chunk" -> {
                            if (txt != null && !txt.isBlank() && beforeTerminal) {
                                finalRun.append(txt); // consecutive chunks form one final run
                                finalSeq = seq;
                                finalAt = at;
                                finalPhase = phase;
                            }
                        }
                        case "agent_thought_chunk", "tool_call", "tool_call_update" -> {
                            if (beforeTerminal && (type.startsWith("tool_call") || txt != null && !txt.isBlank())) {
                                if (type.startsWith("tool_call")) {
                                    tools = true;
                                } else {
                                    output = true;
                                }
                                if (finalRun.length() > 0) {
                                    output = true; // an earlier run is ordinary output
                                    finalRun.setLength(0);
                                }
                            }
                        }
                        default -> {
                            if (u.has("_meta")) {
                                signals.add(signal(seq, at, FrameSource.ACP_UPDATE, phase, SignalKind.UPDATE_META,
                                        fields("update", type, "meta", u.get("_meta").toString(), "text", txt)));
                            }
                        }
                    }
                }
                case "stderr" -> signals.add(signal(seq, at, FrameSource.STDERR, phase, SignalKind.STDERR,
                        fields("line", p.path("line").asText(""))));
                case "exit" -> signals.add(signal(seq, at, FrameSource.EXIT, phase, SignalKind.EXIT,
                        fields("code", text(p.get("code")), "signal", text(p.get("signal")))));
                case "http" -> {
                    Map<String, String> m = new TreeMap<>();
                    m.put("status", text(p.get("status")));
                    m.put("body", text(p.get("body")));
                    for (Iterator<Map.Entry<String, JsonNode>> it = p.path("headers").fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> h = it.next();
                        m.put("header." + h.getKey().toLowerCase(Locale.ROOT), h.getValue().asText());
                    }
                    m.values().removeIf(v -> v == null);
                    signals.add(signal(seq, at, FrameSource.HTTP, phase, SignalKind.HTTP, m));
                }
                case "lifecycle" -> signals.add(signal(seq, at, FrameSource.LIFECYCLE, phase, SignalKind.LIFECYCLE,
                        fields("event", text(p.get("event")), "message", text(p.get("message")), "phase", text(p.get("phase")))));
                default -> throw new IllegalArgumentException(sessionId + ": unknown source " + fr.source());
            }
        }
        if (finalRun.length() > 0) {
            signals.add(signal(finalSeq, finalAt, FrameSource.ACP_UPDATE, finalPhase, SignalKind.FINAL_CHUNK,
                    fields("text", finalRun.toString())));
            signals.sort(java.util.Comparator.comparingLong(Signal::seq).thenComparing(s -> s.kind().ordinal()));
        }
        Instant terminalAt = frames.isEmpty() ? BASE : frames.get(terminal >= 0 ? terminal : frames.size() - 1).at();
        Evidence draft = new Evidence(sessionId, generation, agentType, providerId, modelId, launch,
                signals, terminalAt, stopReason, output, tools, 0);
        if (finalRun.length() == 0) {
            return draft;
        }
        // the final chunk counts as output unless it is the surfaced failure (DESIGN §1)
        boolean surfaced = CLASSIFIER.explain(draft).finalChunkIsFailure();
        return new Evidence(sessionId, generation, agentType, providerId, modelId, launch, signals, terminalAt,
                stopReason, output || !surfaced, tools, 0);
    }

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();

    private static boolean isStop(Frame f) {
        return f.source().equals("acp_response") && f.payload().has("stopReason");
    }

    private static int terminalIndex(List<Frame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            String s = frames.get(i).source();
            if (s.equals("acp_error") || isStop(frames.get(i)) || s.equals("exit")
                    || s.equals("lifecycle") && frames.get(i).payload().path("event").asText().matches("launch_failed|turn_abandoned")) {
                return i;
            }
        }
        return -1;
    }

    private static Signal signal(long seq, Instant at, FrameSource source, Phase phase, SignalKind kind, Map<String, String> f) {
        return new Signal(seq, at, source, phase, kind, new TreeMap<>(f));
    }

    private static Map<String, String> fields(String... kv) {
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put(kv[i], kv[i + 1]);
            }
        }
        return m;
    }

    /** Text nodes as their text, numbers as digits, objects/arrays as compact JSON, null as absent. */
    private static String text(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        return n.isValueNode() ? n.asText() : n.toString();
    }
}
