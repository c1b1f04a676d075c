package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.taxonomy.Classification;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Bounded time on adversarial input (DESIGN §5.2): 100 KB texts made of runs of
 * the characters the catalogue's regexes use and of words taken from its rules, placed in every
 * field a rule reads, always classify. No timing assertion: a catastrophic regex would hang the
 * run instead of finishing it. QuickTheories with a fixed seed, as the project's other properties.
 */
public class ClassifierProperties {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final int SIZE = 100 * 1024;
    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x5A41_7153_0C47L;

    private static final List<String> PIECES = List.of(
            " ", "  \t", "\n", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "^", "$", "\\", "\"", "'", "`", ":", "=",
            "_", "-", "/", "0", "429", "529", "5", "rate", "limit", "rate limit", "rate_limit", "quota", "exceeded",
            "usage limit", "reached", "API Error: ", "API Error: 529 ", "overloaded", "overloaded_error", "model",
            "Selected model is at", "capacity", "thinking", "blocks", "cannot be modified", "resets in ", "4hr ", "19min",
            "try again in ", "Retry-After: ", "reset_time: ", "1780326000", "|", "{\"type\":\"error\",\"error\":{",
            "\"resets_in_seconds\":", "connection", "closed", "peer", "disconnected", "context canceled", "fatal: '",
            "authentication", "token", "expired", "api key", "not", "set", "insufficient", "credits", "limit: ", "per minute");

    /** 1..40 pieces joined into a unit, repeated to exactly 100 KiB. */
    private static Gen<String> adversarial() {
        return lists().of(Generate.pick(PIECES)).ofSizeBetween(1, 40).map(l -> String.join("", l))
                .map(u -> u.repeat(SIZE / u.length() + 1).substring(0, SIZE))
                .describedAs(t -> "\"" + t.substring(0, 60) + "…\" (" + t.length() + " chars)");
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    @Test
    public void everyFailedTurnOfAdversarialTextClassifies() {
        theory(15).forAll(adversarial()).checkAssert(text -> {
            Optional<Classification> c = CLASSIFIER.classify(evidence(text, null));

            assertThat(c).isPresent();
            assertThat(c.get().catalogueVersion()).isEqualTo("provider-errors.v2");
        });
    }

    @Test
    public void everyCompletedTurnOfAdversarialTextIsDecided() {
        theory(15).forAll(adversarial()).checkAssert(text -> {
            Evidence e = evidence(text, "end_turn");

            Explanation x = CLASSIFIER.explain(e);

            assertThat(x.trials()).hasSize(CLASSIFIER.catalogue().rules().size());
            assertThat(x.classification()).isEqualTo(CLASSIFIER.classify(e));
        });
    }

    private static Evidence evidence(String text, String stopReason) {
        List<Signal> signals = List.of(
                signal(1, FrameSource.HTTP, SignalKind.HTTP, "status", "429", "body", text, "header.retry-after", text,
                        "header.x-ratelimit-reset-tokens", text, "header.anthropic-ratelimit-tokens-reset", text),
                signal(2, FrameSource.STDERR, SignalKind.STDERR, "line", text),
                signal(3, FrameSource.ACP_UPDATE, SignalKind.UPDATE_META, "update", "session_info_update", "meta", text, "text", text),
                signal(4, FrameSource.ACP_UPDATE, SignalKind.FINAL_CHUNK, "text", text),
                signal(5, FrameSource.LIFECYCLE, SignalKind.LIFECYCLE, "event", "launch_failed", "message", text),
                signal(6, FrameSource.ACP_ERROR, SignalKind.ERROR, "code", "-32603", "message", text, "data", text));
        return new Evidence("s", 1, "opencode-acp", null, null, false, signals, T0.plusSeconds(6), stopReason, false, false, 0);
    }

    private static Signal signal(long seq, FrameSource source, SignalKind kind, String... kv) {
        TreeMap<String, String> f = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            f.put(kv[i], kv[i + 1]);
        }
        return new Signal(seq, T0.plusSeconds(seq), source, Phase.STREAMING, kind, f);
    }
}
