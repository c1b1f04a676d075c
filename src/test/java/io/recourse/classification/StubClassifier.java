package io.recourse.classification;

import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A test stand-in for the catalogue's classifier that only decides failed vs not failed; its
 * classification is a fixed placeholder (the real codes are asserted once the catalogue lands).
 * Fails a turn on any error, exit, lifecycle, stderr or HTTP ≥ 400 signal, a prompt result's
 * {@code sessionFailure} metadata, or a final chunk that starts with one of the corpus adapters' known failure
 * prefixes. Update failure metadata alone never fails a turn (signatures S095–S097).
 */
public final class StubClassifier implements TurnClassifier {

    public static final Classification FAILED = new Classification(Code.AGENT_RUNTIME_ERROR, Confidence.LOW, "test.stub",
            "test", Scope.PROVIDER, null, null, false);

    private static final List<String> FAILURE_TEXT_PREFIXES = List.of(
            "selected model is at capacity", "api error:", "exceeded retry limit", "ran into this error:",
            "claude ai usage limit reached", "stream disconnected before completion", "codex ran out of room",
            "you've hit your usage limit", "authentication is required");

    @Override
    public Optional<Classification> classify(Evidence evidence) {
        for (Signal s : evidence.signals()) {
            boolean failure = switch (s.kind()) {
                case ERROR, EXIT, LIFECYCLE, STDERR -> true;
                case HTTP -> Integer.parseInt(s.field("status")) >= 400;
                case STOP -> false;
                case FINAL_CHUNK -> isFailureText(s.field("text"));
                case UPDATE_META -> "prompt_result".equals(s.field("update")) && s.field("meta").contains("sessionFailure");
            };
            if (failure) {
                return Optional.of(FAILED);
            }
        }
        return Optional.empty();
    }

    public static boolean isFailureText(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return FAILURE_TEXT_PREFIXES.stream().anyMatch(t::startsWith);
    }
}
