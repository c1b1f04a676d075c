package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Classifier semantics of DESIGN §5.2 on hand-built evidence. */
public class ClassifierTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final Classifier SHIPPED = Classifier.withDefaultCatalogue();

    private static Signal signal(long seq, SignalKind kind, Phase phase, String... kv) {
        Map<String, String> f = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            f.put(kv[i], kv[i + 1]);
        }
        FrameSource source = switch (kind) {
            case ERROR -> FrameSource.ACP_ERROR;
            case STDERR -> FrameSource.STDERR;
            case EXIT -> FrameSource.EXIT;
            case HTTP -> FrameSource.HTTP;
            case LIFECYCLE -> FrameSource.LIFECYCLE;
            case STOP -> FrameSource.ACP_RESPONSE;
            default -> FrameSource.ACP_UPDATE;
        };
        return new Signal(seq, T0.plusSeconds(seq), source, phase, kind, new TreeMap<>(f));
    }

    private static Signal signal(long seq, SignalKind kind, String... kv) {
        return signal(seq, kind, Phase.STREAMING, kv);
    }

    private static Evidence turn(String agent, String stopReason, boolean launch, Signal... signals) {
        List<Signal> list = new ArrayList<>(List.of(signals));
        if (stopReason != null) {
            list.add(signal(list.size() + 100, SignalKind.STOP, "stop_reason", stopReason));
        }
        Instant terminal = list.isEmpty() ? T0 : list.get(list.size() - 1).occurredAt();
        return new Evidence("s", 1, agent, null, null, launch, list, terminal, stopReason, false, false, 0);
    }

    private static Evidence failed(Signal... signals) {
        return turn("claude-acp", null, false, signals);
    }

    @Test
    public void proseMentioningRateLimitsOverloadAndQuotaNeverFailsACompletedTurn() {
        Evidence e = turn("claude-acp", "end_turn", false, signal(1, SignalKind.FINAL_CHUNK,
                "text", "The API hit a rate limit, returned 529 Overloaded and then quota exceeded; I added retries."));

        assertThat(SHIPPED.classify(e)).isEmpty();
    }

    @Test
    public void aFinalChunkThatIsAnApiErrorFailsACompletedTurn() {
        Evidence e = turn("claude-acp", "end_turn", false, signal(1, SignalKind.FINAL_CHUNK,
                "text", "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}"));

        assertThat(SHIPPED.classify(e)).map(Classification::code).contains(Code.PROVIDER_OVERLOADED);
        assertThat(SHIPPED.explain(e).finalChunkIsFailure()).isTrue();
    }

    @Test
    public void anErrorTheAgentRetriedPastDoesNotFailTheTurnItCompleted() {
        Evidence e = turn("claude-acp", "end_turn", false,
                signal(1, SignalKind.HTTP, "status", "429", "body", "{\"error\":{\"type\":\"rate_limit_error\"}}"),
                signal(2, SignalKind.STDERR, "line", "Rate limit exceeded, retrying"));

        assertThat(SHIPPED.classify(e)).isEmpty();
        assertThat(SHIPPED.explain(e).trials()).anyMatch(t -> t.detail().contains("none of them is a surfaced failure"));
    }

    @Test
    public void aCancelledTurnIsNeverAFailure() {
        Evidence e = turn("claude-acp", "cancelled", false,
                signal(1, SignalKind.FINAL_CHUNK, "text", "API Error: 529 Overloaded"));

        assertThat(SHIPPED.classify(e)).isEmpty();
    }

    @Test
    public void aFailedTurnWithoutAMatchGetsThePostStartFallbackAtLowConfidence() {
        Optional<Classification> c = SHIPPED.classify(failed(signal(1, SignalKind.ERROR, "message", "Internal error: glitch")));

        assertThat(c).isPresent();
        assertThat(c.get().code()).isEqualTo(Code.AGENT_RUNTIME_ERROR);
        assertThat(c.get().ruleId()).isEqualTo("fallback.post_start.v1");
        assertThat(c.get().confidence()).isEqualTo(Confidence.LOW);
    }

    @Test
    public void aLaunchFailureWithoutAMatchGetsThePreStartFallback() {
        Evidence e = turn(null, null, true, signal(1, SignalKind.LIFECYCLE, Phase.PROCESS_START,
                "event", "launch_failed", "message", "something odd"));

        assertThat(SHIPPED.classify(e)).map(Classification::ruleId).contains("fallback.pre_start.v1");
        assertThat(SHIPPED.classify(e)).map(Classification::code).contains(Code.UNKNOWN_PROVIDER_ERROR);
    }

    @Test
    public void aFailedTurnWithNoSignalsAtAllStillGetsAFallback() {
        assertThat(SHIPPED.classify(failed())).map(Classification::code).contains(Code.AGENT_RUNTIME_ERROR);
    }

    @Test
    public void everyClassificationRecordsTheRuleAndTheCatalogueVersion() {
        Classification c = SHIPPED.classify(failed(signal(1, SignalKind.HTTP, "status", "529"))).orElseThrow();

        assertThat(c.ruleId()).isEqualTo("anthropic.overloaded.http_529.v1");
        assertThat(c.catalogueVersion()).isEqualTo("provider-errors.v2");
    }

    @Test
    public void theHigherPriorityRuleWinsACollision() {
        Classification c = SHIPPED.classify(failed(signal(1, SignalKind.ERROR,
                "message", "Internal error: missing API key: not authenticated"))).orElseThrow();

        assertThat(c.code()).isEqualTo(Code.MISSING_CREDENTIALS);
    }

    @Test
    public void theSameEvidenceAlwaysGetsTheSameClassification() {
        Evidence e = failed(signal(1, SignalKind.HTTP, "status", "429", "header.retry-after", "20"),
                signal(2, SignalKind.ERROR, "message", "rate limit exceeded"));

        assertThat(SHIPPED.classify(e)).isEqualTo(SHIPPED.classify(e)).isEqualTo(Classifier.withDefaultCatalogue().classify(e));
    }

    @Test
    public void aValidatedRetryAfterIsSetForRateLimitsOnly() {
        Classification c = SHIPPED.classify(failed(signal(1, SignalKind.HTTP, "status", "429", "header.retry-after", "20")))
                .orElseThrow();

        assertThat(c.code()).isEqualTo(Code.RATE_LIMITED);
        assertThat(c.retryAfter()).isEqualTo(T0.plusSeconds(1 + 20));
        assertThat(c.resetAt()).isNull();
    }

    @Test
    public void aHintNotAfterTheTerminalFrameIsDropped() {
        Classification c = SHIPPED.classify(failed(
                signal(1, SignalKind.HTTP, "status", "429", "header.retry-after", "5"),
                signal(60, SignalKind.ERROR, "message", "rate limit exceeded"))).orElseThrow();

        assertThat(c.retryAfter()).isNull();
    }

    @Test
    public void aHintBeyondTheSevenDayHorizonIsDropped() {
        Classification c = SHIPPED.classify(failed(
                signal(1, SignalKind.ERROR, "message", "usage limit reached", "data", "{\"resets_in_seconds\":864000}")))
                .orElseThrow();

        assertThat(c.code()).isEqualTo(Code.QUOTA_LIMITED);
        assertThat(c.resetAt()).isNull();
    }

    @Test
    public void aQuotaResetIsSetForQuotaOnlyAndNeverAsRetryAfter() {
        Classification c = SHIPPED.classify(failed(
                signal(1, SignalKind.ERROR, "message", "usage limit reached", "data", "{\"resets_in_seconds\":3600}")))
                .orElseThrow();

        assertThat(c.resetAt()).isEqualTo(T0.plusSeconds(1 + 3600));
        assertThat(c.retryAfter()).isNull();
    }

    @Test
    public void anOverloadIsNeverGivenATimingHint() {
        Classification c = SHIPPED.classify(failed(signal(1, SignalKind.HTTP, "status", "529", "header.retry-after", "20")))
                .orElseThrow();

        assertThat(c.retryAfter()).isNull();
        assertThat(c.resetAt()).isNull();
    }

    @Test
    public void theCodexCapacitySequenceNeedsTheMarkerBeforeTheChunk() {
        Signal marker = signal(1, SignalKind.UPDATE_META, "update", "session_info_update",
                "meta", "{\"threadStatus\":{\"type\":\"systemError\"}}");
        Signal chunk = signal(2, SignalKind.FINAL_CHUNK, "text", "Selected model is at capacity");

        Classification inOrder = SHIPPED.classify(turn("codex-acp", "end_turn", false, marker, chunk)).orElseThrow();
        Signal lateMarker = signal(3, SignalKind.UPDATE_META, "update", "session_info_update",
                "meta", "{\"threadStatus\":{\"type\":\"systemError\"}}");
        Classification reversed = SHIPPED.classify(turn("codex-acp", "end_turn", false, chunk, lateMarker)).orElseThrow();

        assertThat(inOrder.ruleId()).isEqualTo("codex.capacity.system_error_sequence.v1");
        assertThat(reversed.ruleId()).isNotEqualTo("codex.capacity.system_error_sequence.v1");
        assertThat(reversed.code()).isEqualTo(Code.MODEL_CAPACITY);
    }

    @Test
    public void aSystemErrorMarkerAloneNeverFailsATurn() {
        Evidence e = turn("codex-acp", "end_turn", false, signal(1, SignalKind.UPDATE_META,
                "update", "session_info_update", "meta", "{\"threadStatus\":{\"type\":\"systemError\"}}"));

        assertThat(SHIPPED.classify(e)).isEmpty();
    }

    @Test
    public void agentScopedRulesDoNotApplyToOtherAgents() {
        Signal marker = signal(1, SignalKind.UPDATE_META, "meta", "{\"threadStatus\":{\"type\":\"systemError\"}}");
        Signal chunk = signal(2, SignalKind.FINAL_CHUNK, "text", "Selected model is at capacity");

        Explanation x = SHIPPED.explain(turn("claude-acp", "end_turn", false, marker, chunk));

        assertThat(x.trials()).filteredOn(t -> t.ruleId().equals("codex.capacity.system_error_sequence.v1"))
                .singleElement().satisfies(t -> assertThat(t.detail()).contains("out of scope"));
    }

    @Test
    public void aMatchRestingOnlyOnBackgroundSignalsIsCappedAtMedium() {
        Evidence e = turn("opencode-acp", null, false, signal(1, SignalKind.STDERR,
                "line", "level=ERROR message=\"stream error\" small=true agent=title error.error=\"Rate limit exceeded\""));

        Classification c = SHIPPED.classify(e).orElseThrow();

        assertThat(c.code()).isEqualTo(Code.RATE_LIMITED);
        assertThat(c.background()).isTrue();
        assertThat(c.confidence()).isEqualTo(Confidence.MEDIUM);
    }

    @Test
    public void aForegroundMatchBeatsAHigherPriorityBackgroundMatch() {
        Evidence e = turn("opencode-acp", null, false,
                signal(1, SignalKind.STDERR, "line", "level=ERROR small=true agent=title error.error=\"usage limit reached\""),
                signal(2, SignalKind.STDERR, "line", "level=ERROR small=false agent=build error.error=\"Rate limit exceeded\""));

        Classification c = SHIPPED.classify(e).orElseThrow();

        assertThat(c.code()).isEqualTo(Code.RATE_LIMITED);
        assertThat(c.background()).isFalse();
        assertThat(c.confidence()).isEqualTo(Confidence.HIGH);
    }

    @Test
    public void aBackgroundRuleIsCappedAtMediumWhateverItsDeclaredConfidence() {
        Catalogue c = Catalogue.parse("""
                {"catalogue_version":"test-errors.v1","rules":[
                 {"id":"test.title.v1","priority":1,"why":"title call","background":true,
                  "when":[{"in":["stderr.line"],"literal":"title failed"}],
                  "code":"provider_unavailable","class":"transient","confidence":"high","scope":"provider"}]}""");

        Classification x = new Classifier(c).classify(failed(signal(1, SignalKind.STDERR, "line", "title failed"))).orElseThrow();

        assertThat(x.confidence()).isEqualTo(Confidence.MEDIUM);
        assertThat(x.background()).isTrue();
    }

    @Test
    public void aPreStartRuleIgnoresPostStartSignals() {
        Evidence e = failed(signal(1, SignalKind.EXIT, Phase.STREAMING, "code", "127"));

        assertThat(SHIPPED.classify(e).orElseThrow().ruleId()).isNotEqualTo("launch.exit_127.v1");
    }

    @Test
    public void textBeyondTheFieldBoundIsNotRead() {
        String padding = "x".repeat(Classifier.MAX_FIELD_CHARS);
        Evidence e = failed(signal(1, SignalKind.STDERR, "line", padding + " rate limit exceeded"));

        assertThat(SHIPPED.classify(e)).map(Classification::code).contains(Code.AGENT_RUNTIME_ERROR);
    }

    @Test
    public void explainListsEveryRuleInPriorityOrderAndWhyTheWinnerWon() {
        Explanation x = SHIPPED.explain(failed(signal(1, SignalKind.ERROR, "message", "Internal error: API Error: 529 Overloaded.")));

        assertThat(x.trials()).extracting(Explanation.Trial::ruleId)
                .containsExactlyElementsOf(SHIPPED.catalogue().rules().stream().map(Rule::id).toList());
        assertThat(x.verdict()).contains("anthropic.overloaded.529.v1").contains("highest-priority");
        assertThat(x.evidenceSeqs()).containsExactly(1L);
        assertThat(x.trials()).filteredOn(Explanation.Trial::matched).isNotEmpty();
    }
}
