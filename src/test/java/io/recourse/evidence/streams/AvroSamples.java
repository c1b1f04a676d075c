package io.recourse.evidence.streams;

import io.recourse.evidence.Evidence;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;

/** Domain values with every field set, at millisecond precision (what Avro keeps). */
public final class AvroSamples {

    public static final Instant T0 = Instant.parse("2026-11-30T08:00:00.123Z");

    private AvroSamples() {
    }

    public static TurnContext context() {
        return new TurnContext("sess/with/slashes", 3, PromptOrigin.RETRY, 2, "cmd-1", ProfileKind.DYNAMIC, "codex-acp",
                "agent-profile-1", "exec-profile-1", "openai", "gpt-5", "run-1", "ws-1", "task-1", true);
    }

    public static TurnContext sparseContext() {
        return new TurnContext("s1", 1, null, null, null, null, null, null, null, null, null, null, null, null, false);
    }

    public static Classification classification() {
        return new Classification(Code.RATE_LIMITED, Confidence.HIGH, "anthropic.rate_limited.429.v1", "provider-errors.v1",
                Scope.MODEL, T0.plusSeconds(30), null, false);
    }

    public static TurnOutcome failedOutcome() {
        return new TurnOutcome(context(), Outcome.FAILED, false, "end_turn", true, false, false, classification(), T0,
                T0.plusMillis(5));
    }

    public static Signal signal(long seq) {
        TreeMap<String, String> fields = new TreeMap<>();
        fields.put("status", "429");
        fields.put("header.retry-after", "30");
        return new Signal(seq, T0.plusMillis(seq), FrameSource.HTTP, Phase.STREAMING, SignalKind.HTTP, fields);
    }

    public static Evidence evidence() {
        return new Evidence("s1", 4, "claude-acp", "anthropic", "claude-x", true, List.of(signal(1), signal(2)), T0, null,
                false, true, 3);
    }
}
