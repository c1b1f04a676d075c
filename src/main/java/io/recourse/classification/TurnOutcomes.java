package io.recourse.classification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.FrameSource;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Builds the {@link TurnOutcome} of a closed turn from its evidence and the classifier's answer
 * (DESIGN §4 session events, §1 effect flags and replay safety).
 *
 * <p><b>Outcome</b>: a {@code session/prompt} result with {@code stopReason: cancelled} is
 * {@code cancelled} (the classifier is not asked). Otherwise the classifier is asked: a
 * classification means {@code failed}; no classification means {@code completed} for a turn
 * closed by a result; a classifier that throws fails the turn closed with the fallback below,
 * whatever closed it; and — since the classifier's contract always answers for other terminal
 * frames — a defensive fallback ({@code unknown_provider_error} for a launch failure,
 * {@code agent_runtime_error} otherwise, confidence {@code low}, rule
 * {@code evidence.fallback.prestart|poststart}, catalogue {@code evidence}) for an error, exit,
 * launch failure or {@code turn_abandoned}.
 *
 * <p><b>Effect flags</b>: {@code tool_activity_seen} is any tool call/update before the terminal
 * frame. {@code assistant_output_seen} is any non-blank message/thought chunk before it,
 * except that in a <em>failed</em> turn the final assistant chunk(s) do not count when they
 * <em>are</em> the surfaced failure text (DESIGN §1, §5.2). They are, when the whole final run is
 * in the excerpt and either
 * <ol>
 *   <li><b>the catalogue recognizes the text as a failure on its own</b>: the classifier,
 *       asked about a probe turn made of the final chunk (plus the turn's failure-metadata
 *       updates) followed by {@code end_turn}, answers with a classification — the same question
 *       the catalogue's final-chunk rules answer, so no text rule lives in Java; or</li>
 *   <li><b>the text echoes an error</b>: the adapter streamed its error both as a chunk and as
 *       an error object / stderr / HTTP body / failure metadata of the same turn (whitespace- and
 *       case-insensitive containment of the chunk text, at least 12 characters).</li>
 * </ol>
 * A partial answer before a provider error ("partially generated answer", then a disconnect)
 * is neither, so it counts. {@code replay_safe} = no effect flag, or {@code resume_guarantee}.
 */
public final class TurnOutcomes {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TurnOutcomes.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MIN_ECHO_CHARS = 12;

    private TurnOutcomes() {
    }

    /**
     * The outcome of a closed turn.
     *
     * @param turn       from {@link EvidenceAssembler#assemble}
     * @param classifier the catalogue's classifier (pure, deterministic); may be asked twice
     * @return the TurnOutcome whose record timestamp is {@link TurnOutcome#recordedAt()}
     */
    public static TurnOutcome outcome(ClosedTurn turn, TurnClassifier classifier) {
        Evidence e = turn.evidence();
        boolean byResult = turn.terminalSource() == FrameSource.ACP_RESPONSE && e.stopReason() != null;
        Outcome outcome;
        Classification classification = null;
        if (byResult && "cancelled".equals(e.stopReason())) {
            outcome = Outcome.CANCELLED;
        } else {
            Optional<Classification> answer = classifyOrNull(classifier, e);
            if (answer == null) {
                outcome = Outcome.FAILED;
                classification = fallback(e.launch());
            } else if (answer.isPresent()) {
                outcome = Outcome.FAILED;
                classification = answer.get();
            } else if (byResult) {
                outcome = Outcome.COMPLETED;
            } else {
                outcome = Outcome.FAILED;
                classification = fallback(e.launch());
            }
        }
        boolean output = e.assistantOutputSeen();
        if (outcome == Outcome.FAILED && output && !turn.outputBeforeFinalChunks() && isSurfacedFailureText(turn, classifier)) {
            output = false;
        }
        boolean tool = e.toolActivitySeen();
        boolean replaySafe = !(output || tool) || turn.context().resumeGuarantee();
        return new TurnOutcome(turn.context(), outcome, e.launch(), e.stopReason(), output, tool, replaySafe,
                classification, turn.occurredAt(), turn.recordedAt());
    }

    /** True when the final chunk(s) are the surfaced failure text (see the class comment). */
    static boolean isSurfacedFailureText(ClosedTurn turn, TurnClassifier classifier) {
        Signal chunk = turn.finalChunk();
        if (chunk == null || !turn.finalChunkComplete()) {
            return false;
        }
        return echoesError(turn.evidence(), chunk) || safelyClassify(classifier, probe(turn.evidence(), chunk)).isPresent();
    }

    /** The probe turn: failure-metadata updates, the final chunk, then {@code end_turn}. */
    static Evidence probe(Evidence e, Signal chunk) {
        List<Signal> signals = new ArrayList<>();
        for (Signal s : e.signals()) {
            if (s.kind() == SignalKind.UPDATE_META && s.seq() < chunk.seq()) {
                signals.add(s);
            }
        }
        signals.add(chunk);
        signals.add(new Signal(chunk.seq() + 1, e.terminalAt(), FrameSource.ACP_RESPONSE, chunk.phase(), SignalKind.STOP,
                new TreeMap<>(Map.of("stop_reason", "end_turn"))));
        return new Evidence(e.sessionId(), e.promptGeneration(), e.agentType(), e.providerId(), e.modelId(), false,
                signals, e.terminalAt(), "end_turn", true, e.toolActivitySeen(), 0);
    }

    static boolean echoesError(Evidence e, Signal chunk) {
        String needle = normalize(chunk.field("text"));
        if (needle.length() < MIN_ECHO_CHARS) {
            return false;
        }
        for (Signal s : e.signals()) {
            if (s.kind() == SignalKind.FINAL_CHUNK || s.kind() == SignalKind.STOP) {
                continue;
            }
            for (String value : s.fields().values()) {
                for (String text : texts(value)) {
                    if (normalize(text).contains(needle)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The value itself and, when it is compact JSON, its string leaves. */
    private static List<String> texts(String value) {
        List<String> out = new ArrayList<>();
        out.add(value);
        String t = value.strip();
        if (t.startsWith("{") || t.startsWith("[") || t.startsWith("\"")) {
            try {
                leaves(MAPPER.readTree(t), out, 0);
            } catch (Exception notJson) {
                // a truncated or plain value: the raw text was already added
            }
        }
        return out;
    }

    private static void leaves(JsonNode n, List<String> out, int depth) {
        if (n == null || depth > 16) {
            return;
        }
        if (n.isTextual()) {
            out.add(n.asText());
        } else if (n.isContainerNode()) {
            for (JsonNode child : n) {
                leaves(child, out, depth + 1);
            }
        }
    }

    private static String normalize(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The classifier's answer, or {@code null} when it throws: a classifier bug must never lose a
     * turn's outcome, nor read as a success. {@code null} fails closed — the turn, even one closed
     * by a result, is failed with the low-confidence unclassified fallback, which no owner acts on
     * automatically and which never marks a scope healthy.
     */
    static Optional<Classification> classifyOrNull(TurnClassifier classifier, Evidence e) {
        try {
            return classifier.classify(e);
        } catch (RuntimeException ex) {
            LOG.error("classifier failed on turn {}/{}; failing closed with the fallback", e.sessionId(),
                    e.promptGeneration(), ex);
            return null;
        }
    }

    /** The classifier's answer, or empty when it throws (for the probe: unrecognized text counts as output). */
    static Optional<Classification> safelyClassify(TurnClassifier classifier, Evidence e) {
        Optional<Classification> answer = classifyOrNull(classifier, e);
        return answer == null ? Optional.empty() : answer;
    }

    private static Classification fallback(boolean launch) {
        return new Classification(launch ? Code.UNKNOWN_PROVIDER_ERROR : Code.AGENT_RUNTIME_ERROR, Confidence.LOW,
                launch ? "evidence.fallback.prestart" : "evidence.fallback.poststart", "evidence", Scope.PROVIDER,
                null, null, false);
    }
}
